import { hashKey, type Query, type QueryClient, type UseQueryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type CallArgs, type CallInput, type CallResult } from "./api";
import type { EndpointRoute } from "./endpoints";
import type { ApiProblem } from "./problem";

/** Cache keys start with the endpoint's path, so a mutation can refresh every list under it. */
export function endpointQueryKey(endpoint: EndpointRoute, input?: { params?: unknown; query?: unknown }) {
  return ["ext-svc", endpoint.method, endpoint.path, input?.params ?? {}, input?.query ?? {}] as const;
}

type QueryOptions<E> = Omit<UseQueryOptions<CallResult<E>, ApiProblem>, "queryKey" | "queryFn">;

/**
 * The reads of what an unanswered write deletes (its `forget` keys, by query hash), each with
 * that write's end: true once it is done. Such a read waits for it instead of crossing it (a
 * refetch on reconnect sent beside a delete that waited for the server would answer 404 once
 * the delete lands first).
 */
const beingDeleted = new Map<string, Promise<boolean>>();

/** Runs `write`, which deletes what the queries `gone` ask about: their reads wait for its end. */
export function deleting<T>(gone: readonly (readonly unknown[])[], write: () => Promise<T>): Promise<T> {
  const answer = write();
  const hashes = gone.map((queryKey) => hashKey(queryKey));
  if (hashes.length === 0) return answer;
  const deletion = answer.then(
    () => true,
    () => false,
  );
  for (const hash of hashes) beingDeleted.set(hash, deletion);
  void deletion.then(() => {
    for (const hash of hashes) if (beingDeleted.get(hash) === deletion) beingDeleted.delete(hash);
  });
  return answer;
}

/**
 * Reads for the query `queryKey`, unless a write deleting what it asks about is under way: then
 * once that ends, if it deleted it, answers what the cache holds (a page still showing it keeps
 * that until it goes), asking the server only when it held nothing.
 */
export async function readUnlessDeleted<T>(queryClient: QueryClient, queryKey: readonly unknown[], read: () => Promise<T>): Promise<T> {
  const deletion = beingDeleted.get(hashKey(queryKey));
  if (deletion && (await deletion)) {
    const shown = queryClient.getQueryData<T>(queryKey);
    if (shown !== undefined) return shown;
  }
  return read();
}

/** A GET endpoint as a TanStack query. */
export function useEndpointQuery<E extends EndpointRoute>(endpoint: E, input: CallArgs<E>[0], options: QueryOptions<E> = {}) {
  const queryClient = useQueryClient();
  return useQuery<CallResult<E>, ApiProblem>({
    queryKey: endpointQueryKey(endpoint, input),
    queryFn: ({ queryKey }) =>
      readUnlessDeleted(queryClient, queryKey, () => (api.call as (e: E, i: unknown) => Promise<CallResult<E>>)(endpoint, input)),
    ...options,
  });
}

/**
 * A writing endpoint as a TanStack mutation; on success it refreshes the queries of the
 * `invalidates` endpoints (any params), so lists show what was just changed, and forgets
 * those of the `removes` endpoints and the queries `forget` names for this input.
 */
export function useEndpointMutation<E extends EndpointRoute>(
  endpoint: E,
  {
    invalidates,
    removes = [],
    forget = () => [],
  }: { invalidates: EndpointRoute[]; removes?: EndpointRoute[]; forget?: (input: CallInput<E>) => readonly (readonly unknown[])[] },
) {
  const queryClient = useQueryClient();
  return useMutation<CallResult<E>, ApiProblem, CallInput<E>>({
    mutationFn: (input) => deleting(forget(input), () => (api.call as (e: E, i: unknown) => Promise<CallResult<E>>)(endpoint, input)),
    onSuccess: (_answer, input) => {
      // Cached answers that may name what is gone are dropped before the refresh, so no page
      // shows them (and asks after them) before they are fetched again.
      for (const e of removes) queryClient.removeQueries({ queryKey: ["ext-svc", e.method, e.path] });
      // Questions about what this write deleted would answer 404 now: never asked again. A page
      // still showing them keeps them until it goes (removing them under it would only make it
      // ask again); the others are dropped.
      const gone = new Set(forget(input).map((queryKey) => hashKey(queryKey)));
      queryClient.removeQueries({ type: "inactive", predicate: (query) => gone.has(query.queryHash) });
      const stillThere = (query: Query) => !gone.has(query.queryHash);
      return Promise.all(
        invalidates.map((e) => queryClient.invalidateQueries({ queryKey: ["ext-svc", e.method, e.path], predicate: stillThere })),
      );
    },
  });
}
