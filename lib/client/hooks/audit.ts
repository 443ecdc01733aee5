import { keepPreviousData } from "@tanstack/react-query";
import type { AuditTargetType } from "@/lib/contracts/audit-actions";
import { api, endpointUrl } from "../api";
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

/**
 * Who wrote the resource at `target` (its path, exactly) after `since`, newest first, from the
 * audit log: for a save that found the resource changed meanwhile (ask only as an admin: nobody
 * else may read the log). Null when it cannot be read: who changed it is then not known.
 */
export async function writesSince(target: string, since: string): Promise<{ actor: string; at: string }[] | null> {
  try {
    const log = await api.call(list, { query: { target, from: since, limit: PAGE_SIZE } });
    return log.entries.filter((e) => e.target === target && e.at > since).map((e) => ({ actor: e.actor.principal_id, at: e.at }));
  } catch {
    return null;
  }
}
