import { eq } from "drizzle-orm";
import { banks } from "@/db/schema";
import { forbidden } from "@/lib/http/errors";
import type { Principal } from "@/lib/identity/principal";
import type { AppContext } from "@/lib/server/app";

/** The owner of a bank in the embedded store; undefined when no such bank exists. */
export async function bankOwner(app: AppContext, bankId: string): Promise<string | null | undefined> {
  const [row] = await app.db.select({ owner: banks.owner }).from(banks).where(eq(banks.id, bankId)).limit(1);
  return row ? row.owner : undefined;
}

/**
 * CONTRACT §3 for the policy paths: admins may manage any bank id (a policy may precede
 * its bank); others only a bank that exists and that they own. Banks share one id space,
 * so a refusal is 403 whether or not the bank exists.
 */
export async function assertMayManageBank(app: AppContext, principal: Principal, bankId: string): Promise<void> {
  if (principal.role === "admin") return;
  const owner = await bankOwner(app, bankId);
  if (owner === undefined || owner !== principal.userId) {
    throw forbidden(`You may not manage bank ${bankId}: only its owner or an admin may.`);
  }
}
