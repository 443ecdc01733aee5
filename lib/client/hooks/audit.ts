import { useInfiniteQuery } from "@tanstack/react-query";
import { api, type CallResult } from "../api";
import { endpoints } from "../endpoints";
import type { ApiProblem } from "../problem";
import { endpointQueryKey } from "../query";

const list = endpoints.audit.list;

/** The audit page's filters; empty ones are left out of the request. */
export interface AuditFilters {
  actor?: string;
  action?: string;
  target?: string;
}

const PAGE_SIZE = 50;

/** The audit log, newest first, a page at a time ("Load more" fetches the next). */
export function useAuditLog(filters: AuditFilters) {
  return useInfiniteQuery<CallResult<typeof list>, ApiProblem, { pages: CallResult<typeof list>[] }, readonly unknown[], string | undefined>({
    queryKey: endpointQueryKey(list, { query: filters }),
    queryFn: ({ pageParam }) => api.call(list, { query: { ...filters, limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}
