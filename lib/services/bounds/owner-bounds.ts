import "server-only";
import { and, count, eq, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "@/db/client";
import { serviceAccounts, templateSources, templates } from "@/db/schema";
import { limitReached } from "@/lib/contracts/errors";
import { MAX_PERSONAL_SOURCES_PER_USER, MAX_PERSONAL_TEMPLATES_PER_USER, MAX_SERVICE_ACCOUNTS_PER_USER } from "@/lib/contracts/limits";

/** The advisory lock class of "one user's creations": the second key is the owner's id hashed. */
const OWNER_BOUNDS_LOCK_CLASS = 2018;

/** One bound on what a user holds: how many at most, counted how, and what a refusal says. */
export interface OwnerBound {
  max: number;
  /** How many the owner holds now (in the transaction that will insert one more). */
  held(db: Database): Promise<number>;
  /** The 409's detail when `held` reached `max`. */
  refusal(held: number): string;
}

/** The number of `table`'s rows that match `where`. */
export async function countRows(db: Database, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return row?.n ?? 0;
}

/** The bounds of CONTRACT §18 that count a user's rows of one kind (lib/contracts/limits.ts). */
function userBound(max: number, noun: string, table: PgTable, owned: (owner: string) => SQL | undefined) {
  return (owner: string): OwnerBound => ({
    max,
    held: (db) => countRows(db, table, owned(owner)),
    refusal: (held) => `You have ${held} ${noun}; one user may have at most ${max}. Delete one first.`,
  });
}

const BOUNDS = {
  serviceAccounts: userBound(MAX_SERVICE_ACCOUNTS_PER_USER, "service accounts", serviceAccounts, (owner) =>
    eq(serviceAccounts.ownerUserId, owner),
  ),
  personalSources: userBound(MAX_PERSONAL_SOURCES_PER_USER, "personal template sources", templateSources, (owner) =>
    and(eq(templateSources.scope, "personal"), eq(templateSources.owner, owner)),
  ),
  personalTemplates: userBound(MAX_PERSONAL_TEMPLATES_PER_USER, "personal templates", templates, (owner) =>
    and(eq(templates.scope, "personal"), eq(templates.owner, owner)),
  ),
};

export type OwnerBoundKind = keyof typeof BOUNDS;

/**
 * Refuses (409 `limit-reached`) when the user `ownerUserId` (or one of its service accounts, for
 * a bound of theirs) already holds `bound.max`. Must run in the transaction that then inserts:
 * it takes a transaction-scoped advisory lock per owning user first, so two creations by one user
 * are counted one after the other and never both fit into the last free place. A lock rather than
 * the users row `for update`, which would also hold up sign-ins and password changes that update
 * that row.
 */
export async function assertWithinBound(db: Database, ownerUserId: string, bound: OwnerBound): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${OWNER_BOUNDS_LOCK_CLASS}, hashtext(${ownerUserId}))`);
  const held = await bound.held(db);
  if (held >= bound.max) throw limitReached(bound.refusal(held));
}

/** assertWithinBound for one of the user bounds of CONTRACT §18. */
export function assertRoomFor(db: Database, kind: OwnerBoundKind, ownerUserId: string): Promise<void> {
  return assertWithinBound(db, ownerUserId, BOUNDS[kind](ownerUserId));
}
