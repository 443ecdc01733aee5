import "server-only";
import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { banks } from "@/db/schema";
import { forbidden } from "@/lib/contracts/errors";
import type { ServiceContext } from "@/lib/services/context";

/**
 * The owner of a bank in the embedded store; undefined when no such bank exists. With
 * `hold` (inside a transaction) the bank row is share-locked until the transaction ends,
 * so it cannot be deleted or change hands before a write that depends on it commits.
 */
export async function bankOwner(db: Database, bankId: string, hold = false): Promise<string | null | undefined> {
  const query = db.select({ owner: banks.owner }).from(banks).where(eq(banks.id, bankId));
  const [row] = hold ? await query.for("share") : await query;
  return row ? row.owner : undefined;
}

/**
 * CONTRACT §3 for the policy paths: admins may manage any bank id (a policy may precede
 * its bank); others only a bank that exists and that they own. Banks share one id space,
 * so a refusal is 403 whether or not the bank exists. `hold` as for bankOwner (with
 * `ctx.db` a transaction).
 */
export async function assertMayManageBank(
  ctx: ServiceContext,
  { bankId, hold = false }: { bankId: string; hold?: boolean },
): Promise<void> {
  if (ctx.actor.role === "admin") return;
  assertManages(ctx, bankId, await bankOwner(ctx.db, bankId, hold));
}

/** assertMayManageBank with the bank's owner already read (undefined: no such bank). */
export function assertManages(ctx: ServiceContext, bankId: string, owner: string | null | undefined): void {
  if (ctx.actor.role === "admin") return;
  if (owner === undefined || owner !== ctx.actor.userId) {
    throw forbidden(`You may not manage bank ${bankId}: only its owner or an admin may.`);
  }
}
