import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { bankPolicies } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record";
import { notFound } from "@/lib/http/errors";
import type {
  BankPolicy,
  PolicyContext,
  PolicyDocument,
  PolicyScope,
  ResolvedPolicy,
  ResolvedPublicAccess,
} from "./schemas";

type BankPolicyResult = z.input<typeof BankPolicy>;

const noPolicy = (bankId: string) => notFound(`Bank ${bankId} has no policy.`);

// ---- storage ---------------------------------------------------------------

/** The stored document of a bank; 404 when it has none. */
export async function loadPolicyDocument(db: Database, bankId: string): Promise<PolicyDocument> {
  const [row] = await db
    .select({ document: bankPolicies.document })
    .from(bankPolicies)
    .where(eq(bankPolicies.bankId, bankId))
    .limit(1);
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
  const deleted = await db
    .delete(bankPolicies)
    .where(eq(bankPolicies.bankId, bankId))
    .returning({ bankId: bankPolicies.bankId });
  if (deleted.length === 0) throw noPolicy(bankId);
  await recordAudit(db);
}

// ---- resolution (pure) -----------------------------------------------------

/** Most specific first: a topic override beats a channel one, which beats a provider one. */
const SPECIFICITY: readonly PolicyScope[] = ["topic", "channel", "provider"];

interface ScopedEntry {
  scope: PolicyScope;
  value: string;
}

/**
 * The override that applies in `context`: the most specific scope that the context names
 * and some entry matches exactly; within one scope, the first matching entry in list order.
 */
export function winningOverride<T extends ScopedEntry>(
  overrides: readonly T[] | null | undefined,
  context: PolicyContext,
): T | undefined {
  for (const scope of SPECIFICITY) {
    const wanted = context[scope];
    if (wanted === undefined) continue;
    const hit = overrides?.find((o) => o.scope === scope && o.value === wanted);
    if (hit) return hit;
  }
  return undefined;
}

function resolveStrategy(document: PolicyDocument, context: PolicyContext): string | null {
  return winningOverride(document.strategy_overrides, context)?.strategy ?? document.default_strategy ?? null;
}

function resolvePublicAccess(document: PolicyDocument, context: PolicyContext): ResolvedPublicAccess | null {
  const access = document.public_access;
  if (!access) return null;
  const grant = winningOverride(access.overrides, context) ?? access.default;
  if (!grant) return null;
  // Taken whole, never merged: what the winning grant leaves out is null, not the default's value.
  return {
    actions: [...grant.actions],
    recall_budget: grant.recall_budget ?? null,
    recall_max_tokens: grant.recall_max_tokens ?? null,
  };
}

/** What a policy means in one context (CONTRACT §9); strategy and public access resolve independently. */
export function resolvePolicy(document: PolicyDocument, context: PolicyContext): ResolvedPolicy {
  return { strategy: resolveStrategy(document, context), public_access: resolvePublicAccess(document, context) };
}
