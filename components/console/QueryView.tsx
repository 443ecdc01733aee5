"use client";
import type { ReactNode } from "react";
import { EmptyList, ErrorState, LoadingState } from "./states";

/** The part of a TanStack query result QueryView reads. */
interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  data: T | undefined;
  error: unknown;
  refetch: () => unknown;
}

interface QueryViewProps<T> {
  query: QueryLike<T>;
  /** Announced while loading: "Loading API keys…". */
  loading: string;
  /** The title of the alert when loading failed: "Could not load API keys". */
  errorTitle: string;
  /** When the data counts as empty (a list without rows); the empty state is shown instead. */
  isEmpty?: (data: T) => boolean;
  empty?: { title: string; description: ReactNode; action?: ReactNode };
  children: (data: T) => ReactNode;
}

/**
 * One query's loading, error (with a retry), empty and loaded states, the same on every page.
 */
export function QueryView<T>({ query, loading, errorTitle, isEmpty, empty, children }: QueryViewProps<T>) {
  if (query.isPending) return <LoadingState label={loading} />;
  if (query.isError || query.data === undefined) {
    return <ErrorState title={errorTitle} error={query.error} onRetry={() => query.refetch()} />;
  }
  if (empty && isEmpty?.(query.data)) return <EmptyList title={empty.title} description={empty.description} action={empty.action} />;
  return <>{children(query.data)}</>;
}
