import "server-only";
import { and, desc, eq, lt, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { auditEntries } from "@/db/schema";
import type { AuditEntry, AuditExportQuery, AuditQuery } from "@/lib/contracts/audit/schemas";
import { iso } from "@/lib/contracts/fields";
import { decodeCursor, encodeCursor } from "@/lib/platform/cursor";
import type { ServiceContext } from "@/lib/services/context";

type AuditRow = typeof auditEntries.$inferSelect;
/** An audit entry as the API answers it. */
export type Entry = z.input<typeof AuditEntry>;
type Filters = z.output<typeof AuditExportQuery>;

export function presentEntry(row: AuditRow): Entry {
  return {
    id: row.id,
    at: iso(row.at),
    actor: { principal_type: row.actorType, principal_id: row.actorId, user_id: row.userId },
    action: row.action,
    target: row.target,
    target_type: row.targetType as Entry["target_type"],
    target_id: row.targetId,
    before: row.before ?? null,
    after: row.after ?? null,
    request_id: row.requestId,
  };
}

/** The conditions of the list's and the export's filters. */
function selection(query: Filters): SQL[] {
  const filters: SQL[] = [];
  if (query.actor !== undefined) filters.push(eq(auditEntries.actorId, query.actor));
  if (query.action !== undefined) filters.push(eq(auditEntries.action, query.action));
  if (query.target !== undefined) {
    // The path itself or any path below it; starts_with, unlike LIKE, needs no escaping of % and _.
    const below = query.target.endsWith("/") ? query.target : `${query.target}/`;
    filters.push(or(eq(auditEntries.target, query.target), sql`starts_with(${auditEntries.target}, ${below})`)!);
  }
  if (query.target_type !== undefined) filters.push(eq(auditEntries.targetType, query.target_type));
  // The database reads the instants itself, to the microsecond: from inclusive, to exclusive.
  if (query.from !== undefined) filters.push(sql`${auditEntries.at} >= ${query.from}::timestamptz`);
  if (query.to !== undefined) filters.push(sql`${auditEntries.at} < ${query.to}::timestamptz`);
  return filters;
}

/** Up to `limit` entries of the selection older than `beforeSeq` (all when null), newest first; one more tells whether more follow. */
const page = (db: Database, filters: SQL[], beforeSeq: number | null, limit: number) =>
  db
    .select()
    .from(auditEntries)
    .where(and(...filters, ...(beforeSeq === null ? [] : [lt(auditEntries.seq, beforeSeq)])))
    .orderBy(desc(auditEntries.seq))
    .limit(limit);

/** GET P/admin/audit: newest first (by insertion order), filtered, paged by an opaque cursor bound to the filters. */
export async function listAuditEntries(ctx: ServiceContext, query: z.output<typeof AuditQuery>) {
  const added = [query.target_type ?? null, query.from ?? null, query.to ?? null];
  // A cursor made before the later filters existed still reads the same selection without them.
  const context = JSON.stringify([
    "audit",
    query.actor ?? null,
    query.action ?? null,
    query.target ?? null,
    ...(added.some((value) => value !== null) ? added : []),
  ]);
  const cursorKey = ctx.app.secretKey;
  const after = query.cursor === undefined ? null : Number(decodeCursor(cursorKey, query.cursor, context));
  const rows = await page(ctx.db, selection(query), after, query.limit + 1);
  const entries = rows.slice(0, query.limit);
  const last = entries[entries.length - 1];
  return {
    entries: entries.map(presentEntry),
    next_cursor: rows.length > query.limit && last ? encodeCursor(cursorKey, String(last.seq), context) : null,
  };
}

/** How many entries the export reads at a time: what it holds in memory at most. */
const EXPORT_PAGE = 500;

/**
 * GET P/admin/audit/export: every entry of the list's selection, newest first, read a page at a
 * time as the caller takes them. Entries written meanwhile are newer than the first read, so
 * they are not part of it; it stops when the caller went away.
 */
export async function* exportAuditEntries(ctx: ServiceContext, query: Filters): AsyncGenerator<Entry> {
  const filters = selection(query);
  let beforeSeq: number | null = null;
  while (!ctx.signal.aborted) {
    const rows = await page(ctx.db, filters, beforeSeq, EXPORT_PAGE);
    for (const row of rows) yield presentEntry(row);
    if (rows.length < EXPORT_PAGE) return;
    beforeSeq = rows[rows.length - 1]!.seq;
  }
}
