"use client";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import type { ConsoleUser } from "@/lib/auth/console-user";
import { ApiProblem } from "@/lib/client/problem";
import { ConsoleUserProvider } from "./console-user";

/** A 401 from the API means the session ended (expired, or the user was deactivated). */
function sendToSignInOn401(error: unknown) {
  if (error instanceof ApiProblem && error.status === 401) {
    const here = window.location.pathname + window.location.search;
    window.location.assign(`/signin?callbackUrl=${encodeURIComponent(here)}`);
  }
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: sendToSignInOn401 }),
    mutationCache: new MutationCache({ onError: sendToSignInOn401 }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A 4xx will not change by asking again; network trouble and 5xx may.
        retry: (failures, error) => failures < 2 && (!(error instanceof ApiProblem) || error.status === 0 || error.status >= 500),
      },
    },
  });
}

/** The client-side context of every console page: the data cache and the signed-in user. */
export function ConsoleProviders({ user, children }: { user: ConsoleUser; children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ConsoleUserProvider value={user}>{children}</ConsoleUserProvider>
    </QueryClientProvider>
  );
}
