import "server-only";
import { and, desc, eq, lt, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { auditEntries } from "@/db/schema";
import type { AuditEntry, AuditQuery } from "@/lib/contracts/audit/schemas";
import { iso } from "@/lib/contracts/fields";
import { decodeCursor, encodeCursor } from "@/lib/platform/cursor";

type AuditRow = typeof auditEntries.$inferSelect;

function presentEntry(row: AuditRow): z.input<typeof AuditEntry> {
  return {
    id: row.id,
    at: iso(row.at),
    actor: { principal_type: row.principalType, principal_id: row.principalId, user_id: row.userId },
    action: row.action,
    target: row.target,
    request_id: row.requestId,
  };
}

/** GET P/admin/audit: newest first (by insertion order), filtered, paged by an opaque cursor bound to the filters. */
export async function listAuditEntries(db: Database, cursorKey: Buffer, query: z.output<typeof AuditQuery>) {
  const context = JSON.stringify(["audit", query.actor ?? null, query.action ?? null, query.target ?? null]);
  const filters: SQL[] = [];
  if (query.actor !== undefined) filters.push(eq(auditEntries.principalId, query.actor));
  if (query.action !== undefined) filters.push(eq(auditEntries.action, query.action));
  if (query.target !== undefined) {
    // The path itself or any path below it; starts_with, unlike LIKE, needs no escaping of % and _.
    const below = query.target.endsWith("/") ? query.target : `${query.target}/`;
    filters.push(or(eq(auditEntries.target, query.target), sql`starts_with(${auditEntries.target}, ${below})`)!);
  }
  if (query.cursor !== undefined) filters.push(lt(auditEntries.seq, Number(decodeCursor(cursorKey, query.cursor, context))));
  const rows = await db
    .select()
    .from(auditEntries)
    .where(and(...filters))
    .orderBy(desc(auditEntries.seq))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    entries: page.map(presentEntry),
    next_cursor: rows.length > query.limit && last ? encodeCursor(cursorKey, String(last.seq), context) : null,
  };
}
