"use client";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
// Its popstate listener must be added before the router's: as this module is first evaluated.
import "@/components/forms/popstate";
import { isNetworkFailure } from "@/lib/client/api";
import { shareKeepingTag } from "@/lib/client/entity-tag";
import { ApiProblem } from "@/lib/client/problem";
import type { ConsoleUser } from "@/lib/contracts/identity/console-user";
import { ConsoleUserProvider } from "./console-user";
import { useLoaded } from "./useLoaded";

/** A 401 from the API means the session ended (expired, or the user was deactivated). */
function sendToSignInOn401(error: unknown) {
  if (error instanceof ApiProblem && error.status === 401) {
    const here = window.location.pathname + window.location.search;
    window.location.assign(`/signin?callbackUrl=${encodeURIComponent(here)}`);
  }
}

/** UnreachableWatch's reportUnreachable, once its code has loaded. */
let reportUnreachable: () => void = () => {};

function onApiError(error: unknown) {
  if (isNetworkFailure(error)) reportUnreachable();
  sendToSignInOn401(error);
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onApiError }),
    mutationCache: new MutationCache({ onError: onApiError }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A cached answer keeps the ETag of the answer it stands for (forms send it as If-Match).
        structuralSharing: shareKeepingTag,
        retry: (failures, error) => {
          if (isNetworkFailure(error)) {
            // Out of reach: the console says so at once, and the query waits, paused
            // (UnreachableWatch makes "online" mean "the server answers"), to go on when it
            // answers. A server that answers /healthz but never the API (a proxy's rule) ends
            // in the query's error state after a while.
            reportUnreachable();
            return failures < 20;
          }
          // A 4xx will not change by asking again; a 5xx may.
          return failures < 2 && error instanceof ApiProblem && error.status >= 500;
        },
        retryDelay: (failures) => Math.min(1000 * 2 ** failures, 5000),
      },
      // A change is sent when the user asks. One that cannot reach the server waits in api.call
      // (lib/client/pending-saves.ts), shown at its form and in the banner: never paused unseen.
      mutations: { networkMode: "always" },
    },
  });
}

/**
 * The client-side context of every console page: the data cache and the signed-in user,
 * watching the server's reachability (UnreachableWatch), and the forms' discard question.
 */
export function ConsoleProviders({ user, children }: { user: ConsoleUser; children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  // Loaded right after the page, not with it (first-load budget), and at once rather than on
  // first use: what to do when the server is out of reach, and the "Discard changes?" dialog
  // of forms with edits, must be in place before they are needed, when nothing more may download.
  const Watch = useLoaded(() =>
    import("./UnreachableWatch").then((m) => {
      reportUnreachable = m.reportUnreachable;
      return m.UnreachableWatch;
    }),
  );
  const DiscardHost = useLoaded(() => import("@/components/forms/DiscardChangesHost").then((m) => m.DiscardChangesHost));
  return (
    <QueryClientProvider client={queryClient}>
      <ConsoleUserProvider value={user}>
        {children}
        {Watch && <Watch />}
        {DiscardHost && <DiscardHost />}
      </ConsoleUserProvider>
    </QueryClientProvider>
  );
}
