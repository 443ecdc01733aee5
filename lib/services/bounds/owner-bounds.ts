import "server-only";
import { and, count, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { serviceAccounts, templateSources, templates } from "@/db/schema";
import { limitReached } from "@/lib/contracts/errors";
import { MAX_PERSONAL_SOURCES_PER_USER, MAX_PERSONAL_TEMPLATES_PER_USER, MAX_SERVICE_ACCOUNTS_PER_USER } from "@/lib/contracts/limits";

/** The advisory lock class of "one user's creations": the second key is the owner's id hashed. */
const OWNER_BOUNDS_LOCK_CLASS = 2018;

interface OwnerBound {
  max: number;
  /** What is counted, in the plural, as the message names it. */
  noun: string;
  count(db: Database, ownerUserId: string): Promise<number>;
}

const countOf = async (rows: Promise<Array<{ n: number }>>) => (await rows)[0]?.n ?? 0;

const BOUNDS = {
  serviceAccounts: {
    max: MAX_SERVICE_ACCOUNTS_PER_USER,
    noun: "service accounts",
    count: (db, owner) => countOf(db.select({ n: count() }).from(serviceAccounts).where(eq(serviceAccounts.ownerUserId, owner))),
  },
  personalSources: {
    max: MAX_PERSONAL_SOURCES_PER_USER,
    noun: "personal template sources",
    count: (db, owner) =>
      countOf(
        db
          .select({ n: count() })
          .from(templateSources)
          .where(and(eq(templateSources.scope, "personal"), eq(templateSources.owner, owner))),
      ),
  },
  personalTemplates: {
    max: MAX_PERSONAL_TEMPLATES_PER_USER,
    noun: "personal templates",
    count: (db, owner) =>
      countOf(
        db
          .select({ n: count() })
          .from(templates)
          .where(and(eq(templates.scope, "personal"), eq(templates.owner, owner))),
      ),
  },
} satisfies Record<string, OwnerBound>;

export type OwnerBoundKind = keyof typeof BOUNDS;

/**
 * Refuses (409 `limit-reached`) when `ownerUserId` already holds the most of `kind` one user
 * may. Must run in the transaction that then inserts: it takes a transaction-scoped advisory
 * lock per owner first, so two creations by one user are counted one after the other and never
 * both fit into the last free place. A lock rather than the users row `for update`, which would
 * also hold up sign-ins and password changes that update that row.
 */
export async function assertRoomFor(tx: Database, kind: OwnerBoundKind, ownerUserId: string): Promise<void> {
  const bound: OwnerBound = BOUNDS[kind];
  await tx.execute(sql`select pg_advisory_xact_lock(${OWNER_BOUNDS_LOCK_CLASS}, hashtext(${ownerUserId}))`);
  const held = await bound.count(tx, ownerUserId);
  if (held >= bound.max) {
    throw limitReached(`You have ${held} ${bound.noun}; one user may have at most ${bound.max}. Delete one first.`);
  }
}
