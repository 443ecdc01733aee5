import "server-only";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { bankPolicies } from "@/db/schema";
import { notFound } from "@/lib/contracts/errors";
import type { BankPolicy, PolicyDocument } from "@/lib/contracts/policy/schemas";
import { recordAudit } from "@/lib/services/audit/record";

type BankPolicyResult = z.input<typeof BankPolicy>;

const noPolicy = (bankId: string) => notFound(`Bank ${bankId} has no policy.`);

// ---- storage ---------------------------------------------------------------

/** The stored document of a bank; 404 when it has none. */
export async function loadPolicyDocument(db: Database, bankId: string): Promise<PolicyDocument> {
  const [row] = await db.select({ document: bankPolicies.document }).from(bankPolicies).where(eq(bankPolicies.bankId, bankId)).limit(1);
  if (!row) throw noPolicy(bankId);
  // Only validated documents are ever written, so the stored shape is a PolicyDocument.
  return row.document as PolicyDocument;
}

export async function getPolicy(db: Database, bankId: string): Promise<BankPolicyResult> {
  return { bank_id: bankId, document: await loadPolicyDocument(db, bankId) };
}

/** Creates or replaces the policy (PUT is an upsert); answers with what was stored. */
export async function putPolicy(db: Database, bankId: string, document: PolicyDocument): Promise<BankPolicyResult> {
  const [row] = await db
    .insert(bankPolicies)
    .values({ bankId, document })
    .onConflictDoUpdate({ target: bankPolicies.bankId, set: { document, updatedAt: new Date() } })
    .returning({ document: bankPolicies.document });
  await recordAudit(db);
  return { bank_id: bankId, document: row!.document as PolicyDocument };
}

export async function deletePolicy(db: Database, bankId: string): Promise<void> {
  const deleted = await db.delete(bankPolicies).where(eq(bankPolicies.bankId, bankId)).returning({ bankId: bankPolicies.bankId });
  if (deleted.length === 0) throw noPolicy(bankId);
  await recordAudit(db);
}

// ---- resolution -------------------------------------------------------------

// Pure, and shared with the console's resolve preview: ./resolve.ts.
export { resolvePolicy } from "./resolve";
