import { keepPreviousData } from "@tanstack/react-query";
import { endpoints } from "../endpoints";
import { useEndpointQuery } from "../query";

const list = endpoints.audit.list;

/** The audit page's filters; empty ones are left out of the request. */
export interface AuditFilters {
  actor?: string;
  action?: string;
  target?: string;
}

const PAGE_SIZE = 50;

/**
 * One page of the audit log, newest first: the first page without a cursor, a later one from the
 * `next_cursor` of the page before. The page kept in the URL is a cursor, so a reload shows the
 * same entries; the page shown stays up while the next one loads.
 */
export function useAuditLog(filters: AuditFilters, cursor: string | null) {
  return useEndpointQuery(
    list,
    { query: { ...filters, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
    { placeholderData: keepPreviousData },
  );
}
