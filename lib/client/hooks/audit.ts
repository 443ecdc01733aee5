import { keepPreviousData } from "@tanstack/react-query";
import type { AuditTargetType } from "@/lib/contracts/audit-actions";
import { endpointUrl } from "../api";
import { endpoints } from "../endpoints";
import { useEndpointQuery } from "../query";

const { list, export: exportAll } = endpoints.audit;

/** The audit page's filters; empty ones are left out of the request. `from` and `to` are ISO 8601 instants. */
export interface AuditFilters {
  actor?: string;
  action?: string;
  target?: string;
  target_type?: AuditTargetType;
  from?: string;
  to?: string;
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

/** The newest `limit` entries of the whole log, for a glance (the home page). */
export function useLatestAuditEntries(limit: number, { enabled = true } = {}) {
  return useEndpointQuery(list, { query: { limit } }, { enabled });
}

/** Where the browser downloads every entry of these filters as NDJSON (the session cookie goes along). */
export function auditExportUrl(filters: AuditFilters): string {
  return endpointUrl(exportAll, { query: filters });
}
