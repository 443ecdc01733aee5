import "server-only";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { bankPolicies } from "@/db/schema";
import { notFound } from "@/lib/contracts/errors";
import type { BankPolicy, PolicyContext, PolicyDocument, ResolvedPolicy } from "@/lib/contracts/policy/schemas";
import { assertMayManageBank } from "@/lib/services/banks/access";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { resolvePolicy } from "./resolve";

type BankPolicyResult = z.input<typeof BankPolicy>;

const noPolicy = (bankId: string) => notFound(`Bank ${bankId} has no policy.`);

// Every verb checks permission first (CONTRACT §3: an admin, or the owner of an existing bank).
// Writes check and write in one transaction that holds the bank, so an owner's permission
// cannot lapse between the check and the write; their audit entry (the policy as GET answers
// it, before and after) is recorded in that transaction.

interface PolicyInput {
  bankId: string;
}

// ---- storage ---------------------------------------------------------------

/**
 * The policy of a bank as GET answers it; null when it has none. With `lock` (inside a
 * transaction) its row stays locked until the transaction ends, so a concurrent write waits.
 */
async function findPolicy(db: Database, bankId: string, lock = false): Promise<BankPolicyResult | null> {
  const query = db.select({ document: bankPolicies.document }).from(bankPolicies).where(eq(bankPolicies.bankId, bankId));
  const [row] = lock ? await query.for("update") : await query.limit(1);
  // Only validated documents are ever written, so the stored shape is a PolicyDocument.
  return row ? { bank_id: bankId, document: row.document as PolicyDocument } : null;
}

/** The stored policy of a bank; 404 when it has none. */
export async function getPolicy(ctx: ServiceContext, { bankId }: PolicyInput): Promise<BankPolicyResult> {
  await assertMayManageBank(ctx, { bankId });
  const policy = await findPolicy(ctx.db, bankId);
  if (!policy) throw noPolicy(bankId);
  return policy;
}

/** Creates or replaces the policy (PUT is an upsert); answers with what was stored. */
export async function putPolicy(
  ctx: ServiceContext,
  { bankId, document }: PolicyInput & { document: PolicyDocument },
): Promise<BankPolicyResult> {
  return withTransaction(ctx, async (tx) => {
    await assertMayManageBank(tx, { bankId, hold: true });
    const before = await findPolicy(tx.db, bankId, true);
    const [row] = await tx.db
      .insert(bankPolicies)
      .values({ bankId, document })
      .onConflictDoUpdate({ target: bankPolicies.bankId, set: { document, updatedAt: new Date() } })
      .returning({ document: bankPolicies.document });
    const after = { bank_id: bankId, document: row!.document as PolicyDocument };
    await tx.audit.record({ action: "bank.policy.put", target: { type: "policy", id: bankId }, before, after });
    return after;
  });
}

export async function deletePolicy(ctx: ServiceContext, { bankId }: PolicyInput): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    await assertMayManageBank(tx, { bankId, hold: true });
    const [deleted] = await tx.db
      .delete(bankPolicies)
      .where(eq(bankPolicies.bankId, bankId))
      .returning({ document: bankPolicies.document });
    if (!deleted) throw noPolicy(bankId);
    const before = { bank_id: bankId, document: deleted.document as PolicyDocument };
    await tx.audit.record({ action: "bank.policy.delete", target: { type: "policy", id: bankId }, before, after: null });
  });
}

// ---- resolution -------------------------------------------------------------

/** What the bank's policy means in one context (CONTRACT §9); 404 when it has none. */
export async function resolveBankPolicy(
  ctx: ServiceContext,
  { bankId, context }: PolicyInput & { context: PolicyContext },
): Promise<ResolvedPolicy> {
  const { document } = await getPolicy(ctx, { bankId });
  return resolvePolicy(document, context);
}

// Pure, and shared with the console's resolve preview: ./resolve.ts.
export { resolvePolicy } from "./resolve";
