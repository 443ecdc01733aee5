import "server-only";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { prepared } from "@/db/prepared";
import { bankPolicies, banks } from "@/db/schema";
import { conflict, notFound } from "@/lib/contracts/errors";
import { resolvePolicy } from "@/lib/contracts/policy/resolve";
import {
  type BankPolicy,
  type PolicyContext,
  PolicyDocument,
  type ResolvedPolicy,
  type RestoredPolicy,
} from "@/lib/contracts/policy/schemas";
import { issuesToFieldErrors } from "@/lib/contracts/validation";
import { assertManages, assertMayManageBank } from "@/lib/services/banks/access";
import { findPolicyChange, holdPolicyLock, recordPolicyChange } from "@/lib/services/banks/history";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { checkPrecondition } from "@/lib/services/preconditions";

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

/** The policy of a bank as GET answers it; null when it has none. */
async function findPolicy(db: Database, bankId: string): Promise<BankPolicyResult | null> {
  const [row] = await db.select({ document: bankPolicies.document }).from(bankPolicies).where(eq(bankPolicies.bankId, bankId)).limit(1);
  // Only validated documents are ever written, so the stored shape is a PolicyDocument.
  return row ? { bank_id: bankId, document: row.document as PolicyDocument } : null;
}

/** The stored policy of a bank; 404 when it has none. */
export async function getPolicy(ctx: ServiceContext, { bankId }: PolicyInput): Promise<BankPolicyResult> {
  // One round trip for the permission and the document (a gateway resolves a policy per message).
  const query = prepared(ctx.db, "policy_with_owner", () =>
    ctx.db
      .select({
        owner: sql<string | null>`(select ${banks.owner} from ${banks} where ${banks.id} = ${sql.placeholder("bankId")})`,
        document:
          sql<PolicyDocument | null>`(select ${bankPolicies.document} from ${bankPolicies} where ${bankPolicies.bankId} = ${sql.placeholder("bankId")})`.mapWith(
            bankPolicies.document,
          ),
      })
      .from(sql`(select 1) as one`)
      .prepare("policy_with_owner"),
  );
  const [row] = await query.execute({ bankId });
  assertManages(ctx, bankId, row?.owner ?? undefined);
  if (!row?.document) throw noPolicy(bankId);
  // Only validated documents are ever written, so the stored shape is a PolicyDocument.
  return { bank_id: bankId, document: row.document as PolicyDocument };
}

/** Creates or replaces the policy (PUT is an upsert); answers with what was stored. */
export async function putPolicy(
  ctx: ServiceContext,
  { bankId, document }: PolicyInput & { document: PolicyDocument },
): Promise<BankPolicyResult> {
  return withTransaction(ctx, async (tx) => {
    await holdPolicy(tx, bankId);
    const { before, after } = await storePolicy(tx, { bankId, document, restoredFrom: null });
    await tx.audit.record({ action: "bank.policy.put", target: { type: "policy", id: bankId }, before, after });
    return after;
  });
}

export async function deletePolicy(ctx: ServiceContext, { bankId }: PolicyInput): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    await holdPolicy(tx, bankId);
    const before = await removePolicy(tx, { bankId, restoredFrom: null });
    if (!before) throw noPolicy(bankId);
    await tx.audit.record({ action: "bank.policy.delete", target: { type: "policy", id: bankId }, before, after: null });
  });
}

/**
 * POST P/banks/{bank_id}/policy/restore (CONTRACT §16): puts back what a policy entry of this bank's
 * history left, in one transaction: its `after` document, stored as PUT stores one, or, when it is
 * null, the deletion (nothing to delete is nothing to do). Answers the policy now, `document` null
 * when there is none. The change is a history entry naming the entry it restored.
 */
export async function restorePolicy(
  ctx: ServiceContext,
  { bankId, entry }: PolicyInput & { entry: string },
): Promise<z.input<typeof RestoredPolicy>> {
  return withTransaction(ctx, async (tx) => {
    await holdPolicy(tx, bankId);
    const change = await findPolicyChange(tx.db, bankId, entry);
    // An import entry, another bank's entry and an unknown id are all "no such policy entry here".
    if (!change) throw notFound(`Bank ${bankId} has no policy history entry ${entry}.`);
    if (change.after === null) {
      const before = await removePolicy(tx, { bankId, restoredFrom: entry });
      await tx.audit.record({ action: "bank.policy.restore", target: { type: "policy", id: bankId }, before, after: null });
      return { bank_id: bankId, document: null };
    }
    const document = restorableDocument(entry, change.after);
    const { before, after } = await storePolicy(tx, { bankId, document, restoredFrom: entry });
    await tx.audit.record({ action: "bank.policy.restore", target: { type: "policy", id: bankId }, before, after });
    return after;
  });
}

// ---- writes ------------------------------------------------------------------

/**
 * Before any write: the caller's permission, checked holding the bank (CONTRACT §3), and the bank's
 * policy lock (holdPolicyLock), so each write reads as `before` what the previous one left.
 */
async function holdPolicy(tx: ServiceContext, bankId: string): Promise<void> {
  await assertMayManageBank(tx, { bankId, hold: true });
  await holdPolicyLock(tx.db, bankId);
}

/** Stores the document (insert or replace) and records the change; answers the policy before and after, as GET answers it. */
async function storePolicy(
  tx: ServiceContext,
  { bankId, document, restoredFrom }: PolicyInput & { document: PolicyDocument; restoredFrom: string | null },
): Promise<{ before: BankPolicyResult | null; after: BankPolicyResult }> {
  const before = await findPolicy(tx.db, bankId);
  checkPrecondition(tx, before);
  const [row] = await tx.db
    .insert(bankPolicies)
    .values({ bankId, document })
    .onConflictDoUpdate({ target: bankPolicies.bankId, set: { document, updatedAt: new Date() } })
    .returning({ document: bankPolicies.document });
  const after = { bank_id: bankId, document: row!.document as PolicyDocument };
  await recordChange(tx, { bankId, before, after, restoredFrom });
  return { before, after };
}

/** Deletes the policy and records the change; answers the policy it deleted, or null when there was none (nothing recorded). */
async function removePolicy(
  tx: ServiceContext,
  { bankId, restoredFrom }: PolicyInput & { restoredFrom: string | null },
): Promise<BankPolicyResult | null> {
  const [deleted] = await tx.db.delete(bankPolicies).where(eq(bankPolicies.bankId, bankId)).returning({ document: bankPolicies.document });
  if (!deleted) return null;
  const before = { bank_id: bankId, document: deleted.document as PolicyDocument };
  await recordChange(tx, { bankId, before, after: null, restoredFrom });
  return before;
}

/** The history entry of a change: the documents themselves, not GET's {bank_id, document} wrapper. */
function recordChange(
  tx: ServiceContext,
  change: { bankId: string; before: BankPolicyResult | null; after: BankPolicyResult | null; restoredFrom: string | null },
): Promise<void> {
  return recordPolicyChange(tx.db, {
    bankId: change.bankId,
    actor: tx.actor.id,
    before: change.before?.document ?? null,
    after: change.after?.document ?? null,
    restoredFrom: change.restoredFrom,
    at: new Date(),
  });
}

/**
 * A history entry's document as a PolicyDocument. Entries keep documents as they were stored, so
 * one stored under an earlier schema may no longer validate: 409, naming each problem, and
 * nothing written.
 */
function restorableDocument(entry: string, stored: Record<string, unknown>): PolicyDocument {
  const parsed = PolicyDocument.safeParse(stored);
  // Put back as stored, keys in their order (the parse would reorder them); it holds nothing the parse would drop.
  if (parsed.success) return stored as PolicyDocument;
  throw conflict(
    `The policy document of history entry ${entry} is not a valid policy document any more, so it cannot be restored; put a new document instead.`,
    issuesToFieldErrors(parsed.error.issues, ["document"]),
    "stale-policy-document",
  );
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

// Pure, and shared with the console's resolve preview: lib/contracts/policy/resolve.ts.
export { resolvePolicy } from "@/lib/contracts/policy/resolve";
