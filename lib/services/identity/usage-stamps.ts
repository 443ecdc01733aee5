import "server-only";
import { isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

// "Last used" stamps (an API key's last_used_at, CONTRACT §11; a session's last_seen_at, §18)
// are written at most once a minute per row, so a busy key or session costs no write on most
// requests: each process remembers when it last knew the stamp set, and the write itself is
// conditional, so processes racing on one row write it once.

const STAMP_RESOLUTION_MS = 60_000;

/** What a process remembers of a row's stamp: when it last knew it set (ms since the epoch), or null. */
export interface KnownStamp {
  stampedAt: number | null;
}

/** Whether the stamp is due a write; when it is, it counts as written now from here on. */
export function stampDue(known: KnownStamp): boolean {
  const now = Date.now();
  if (known.stampedAt !== null && now - known.stampedAt < STAMP_RESOLUTION_MS) return false;
  known.stampedAt = now;
  return true;
}

/** The stored stamp is unset or older than the resolution: the condition of the stamp's UPDATE. */
export const staleStamp = (column: PgColumn): SQL | undefined =>
  or(isNull(column), lt(column, sql`now() - make_interval(secs => ${STAMP_RESOLUTION_MS / 1000})`));
