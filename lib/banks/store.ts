import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { isForeignKeyViolation } from "@/db/errors";
import { bankDirectives, bankMentalModels, banks } from "@/db/schema";
import { conflict, forbidden, notFound } from "@/lib/http/errors";
import type { Principal } from "@/lib/identity/principal";
import type { BankTemplateManifest } from "@/lib/templates/manifest";
import { planImport } from "./import-plan";
import type { ImportResult } from "./schemas";

export interface ImportRequest {
  bankId: string;
  name?: string;
  template: { ref: string; revision: string | null; manifest: BankTemplateManifest };
  dryRun: boolean;
}

export type BankRow = typeof banks.$inferSelect;

const mayChange = (bank: BankRow, principal: Principal) => principal.role === "admin" || bank.owner === principal.userId;

/**
 * Applies a template to a bank of the embedded store in one transaction: creates the bank
 * when missing (owned by the caller), merges config overrides field by field, and replaces
 * or adds mental models and directives. A failure anywhere leaves the bank as it was.
 */
export async function importIntoEmbeddedStore(
  app: { db: Database },
  principal: Principal,
  request: ImportRequest,
): Promise<{ bankCreated: boolean; result: ImportResult }> {
  const { bankId, dryRun } = request;
  return withCallerPresent(principal, () => app.db.transaction(async (tx) => {
    const now = new Date();
    const { bank, bankCreated } = await lockOrCreateBank(tx, principal, request, now);
    if (bank && !bankCreated && !mayChange(bank, principal)) {
      throw forbidden(`Bank ${bankId} belongs to another user; only its owner or an admin may apply templates to it.`);
    }

    const models = bank ? await tx.select({ id: bankMentalModels.id, position: bankMentalModels.position }).from(bankMentalModels).where(eq(bankMentalModels.bankId, bankId)) : [];
    const directives = bank ? await tx.select({ name: bankDirectives.name, position: bankDirectives.position }).from(bankDirectives).where(eq(bankDirectives.bankId, bankId)) : [];
    const plan = planImport(request.template.manifest, {
      mentalModelIds: new Set(models.map((m) => m.id)),
      directiveNames: new Set(directives.map((d) => d.name)),
    });
    const result: ImportResult = { bank_id: bankId, ...plan.result, operation_ids: [], dry_run: dryRun };
    if (dryRun) return { bankCreated: false, result };

    await tx
      .update(banks)
      .set({
        config: { ...bank!.config, ...plan.config },
        ...(request.name !== undefined ? { name: request.name } : {}),
        lastAppliedTemplate: request.template.ref,
        lastAppliedRevision: request.template.revision,
        lastAppliedAt: now,
        updatedAt: now,
      })
      .where(eq(banks.id, bankId));

    // One statement per section. New entries go after the existing ones; a replaced entry keeps
    // its place (the update sets only `entry`). Ids and names are unique within a valid manifest.
    const after = (positions: number[]) => Math.max(-1, ...positions) + 1;
    const firstModel = after(models.map((m) => m.position));
    if (plan.mentalModels.length > 0) {
      await tx
        .insert(bankMentalModels)
        .values(plan.mentalModels.map((entry, i) => ({ bankId, id: entry.id, entry, position: firstModel + i })))
        .onConflictDoUpdate({ target: [bankMentalModels.bankId, bankMentalModels.id], set: { entry: sql`excluded.entry` } });
    }
    const firstDirective = after(directives.map((d) => d.position));
    if (plan.directives.length > 0) {
      await tx
        .insert(bankDirectives)
        .values(plan.directives.map((entry, i) => ({ bankId, name: entry.name, entry, position: firstDirective + i })))
        .onConflictDoUpdate({ target: [bankDirectives.bankId, bankDirectives.name], set: { entry: sql`excluded.entry` } });
    }
    return { bankCreated, result };
  }));
}

/** A bank created for a caller whose user was deleted meanwhile fails its owner key: 404 for that user. */
async function withCallerPresent<T>(principal: Principal, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw notFound(`No user ${principal.userId} exists.`);
    throw error;
  }
}

// Each attempt either finds the bank or creates it; only a bank deleted and re-created by
// others between our two statements, over and over, could exhaust them.
const BANK_LOCK_ATTEMPTS = 5;

/**
 * The bank, locked until the transaction ends so concurrent imports into it (and its
 * deletion) wait their turn; on a real import a missing bank is created, owned by the
 * caller. A bank deleted while we waited for its lock is simply created anew. On a dry run
 * nothing is written and a missing bank stays missing (undefined).
 */
async function lockOrCreateBank(tx: Database, principal: Principal, request: ImportRequest, now: Date) {
  const { bankId } = request;
  for (let attempt = 0; attempt < BANK_LOCK_ATTEMPTS; attempt++) {
    const [bank] = await tx.select().from(banks).where(eq(banks.id, bankId)).for("update");
    if (bank || request.dryRun) return { bank, bankCreated: false };
    const [created] = await tx
      .insert(banks)
      .values({ id: bankId, owner: principal.userId, name: request.name ?? bankId, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    if (created) return { bank: created, bankCreated: true };
    // Another import created it between our two statements: lock theirs on the next attempt.
  }
  throw conflict(`Bank ${bankId} is being created and deleted concurrently; try again.`);
}

/** A bank with its mental models and directives in the order they were first added. */
export async function loadBank(db: Database, bankId: string) {
  const [bank] = await db.select().from(banks).where(eq(banks.id, bankId)).limit(1);
  if (!bank) return null;
  const models = await db.select({ entry: bankMentalModels.entry }).from(bankMentalModels).where(eq(bankMentalModels.bankId, bankId)).orderBy(asc(bankMentalModels.position));
  const directives = await db.select({ entry: bankDirectives.entry }).from(bankDirectives).where(eq(bankDirectives.bankId, bankId)).orderBy(asc(bankDirectives.position));
  return { bank, mentalModels: models.map((m) => m.entry), directives: directives.map((d) => d.entry) };
}
