import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { isForeignKeyViolation } from "@/db/errors";
import { bankDirectives, bankMentalModels, banks } from "@/db/schema";
import type { BankSummary, ImportResult } from "@/lib/contracts/banks/schemas";
import { conflict, forbidden, notFound } from "@/lib/contracts/errors";
import { iso, isoOrNull } from "@/lib/contracts/fields";
import { recordAudit } from "@/lib/services/audit/record";
import type { Principal } from "@/lib/services/identity/principal";
import type { BankStore, ImportOutcome, ImportRequest, StoredBankDetail } from "./bank-store";
import { importChanges } from "./changes";
import { deleteImportHistory, recordImport } from "./history";
import { planImport } from "./import-plan";

type BankRow = typeof banks.$inferSelect;

const mayChange = (bank: BankRow, principal: Principal) => principal.role === "admin" || bank.owner === principal.userId;

/** The embedded store (CONTRACT §8): banks in our database, each owned by the user who created it. */
export function embeddedBankStore(db: Database): BankStore {
  return {
    importTemplate: (principal, request) => importIntoEmbeddedStore({ db }, principal, request),
    list: (principal) => listEmbeddedBanks(db, principal),
    read: (principal, bankId) => readEmbeddedBank(db, principal, bankId),
    isVisible: async (principal, bankId) => {
      const [bank] = await db.select({ id: banks.id }).from(banks).where(visibleBank(principal, bankId)).limit(1);
      return bank !== undefined;
    },
    remove: (principal, bankId) => deleteEmbeddedBank(db, principal, bankId),
  };
}

/** Admins see every bank, others their own: the rule of reading, listing and deleting. */
const visibleBank = (principal: Principal, bankId: string) =>
  principal.role === "admin" ? eq(banks.id, bankId) : and(eq(banks.id, bankId), eq(banks.owner, principal.userId));

/**
 * Applies a template to a bank of the embedded store in one transaction: creates the bank
 * when missing (owned by the caller), merges config overrides field by field, replaces or adds
 * mental models and directives, and records the import in the bank's history. The changes are
 * computed from what the transaction read, so a dry run previews exactly what the import does.
 * A failure anywhere leaves the bank as it was.
 */
async function importIntoEmbeddedStore(app: { db: Database }, principal: Principal, request: ImportRequest): Promise<ImportOutcome> {
  const { bankId, dryRun } = request;
  return withCallerPresent(principal, () =>
    app.db.transaction(async (tx) => {
      const now = new Date();
      const { bank, bankCreated } = await lockOrCreateBank(tx, principal, request, now);
      if (bank && !bankCreated && !mayChange(bank, principal)) {
        throw forbidden(`Bank ${bankId} belongs to another user; only its owner or an admin may apply templates to it.`);
      }

      const modelColumns = { id: bankMentalModels.id, position: bankMentalModels.position, entry: bankMentalModels.entry };
      const directiveColumns = { name: bankDirectives.name, position: bankDirectives.position, entry: bankDirectives.entry };
      const models = bank ? await tx.select(modelColumns).from(bankMentalModels).where(eq(bankMentalModels.bankId, bankId)) : [];
      const directives = bank ? await tx.select(directiveColumns).from(bankDirectives).where(eq(bankDirectives.bankId, bankId)) : [];
      const plan = planImport(request.template.manifest, {
        mentalModelIds: new Set(models.map((m) => m.id)),
        directiveNames: new Set(directives.map((d) => d.name)),
      });
      // A bank created just now by this import is empty: its before is the empty bank either way.
      const changes = importChanges(plan, {
        config: bank?.config ?? {},
        mentalModels: models.map((m) => m.entry),
        directives: directives.map((d) => d.entry),
      });
      const result: ImportResult = { bank_id: bankId, ...plan.result, operation_ids: [], dry_run: dryRun };
      if (dryRun) return { bankCreated: false, result, changes };

      const appliedAt = await recordImport(tx, {
        bankId,
        template: request.template.ref,
        sourceRevision: request.template.revision,
        actor: principal.id,
        result,
        at: now,
      });
      await tx
        .update(banks)
        .set({
          config: { ...bank!.config, ...plan.config },
          ...(request.name !== undefined ? { name: request.name } : {}),
          lastAppliedTemplate: request.template.ref,
          lastAppliedRevision: request.template.revision,
          lastAppliedAt: appliedAt,
          updatedAt: now,
        })
        .where(eq(banks.id, bankId));

      // New entries go after the existing ones; a replaced entry keeps its place (the update sets
      // only `entry`). Ids and names are unique within a valid manifest.
      const firstModel = nextPosition(models);
      for (const [offset, batch] of rowBatches(plan.mentalModels)) {
        await tx
          .insert(bankMentalModels)
          .values(batch.map((entry, i) => ({ bankId, id: entry.id, entry, position: firstModel + offset + i })))
          .onConflictDoUpdate({ target: [bankMentalModels.bankId, bankMentalModels.id], set: { entry: sql`excluded.entry` } });
      }
      const firstDirective = nextPosition(directives);
      for (const [offset, batch] of rowBatches(plan.directives)) {
        await tx
          .insert(bankDirectives)
          .values(batch.map((entry, i) => ({ bankId, name: entry.name, entry, position: firstDirective + offset + i })))
          .onConflictDoUpdate({ target: [bankDirectives.bankId, bankDirectives.name], set: { entry: sql`excluded.entry` } });
      }
      await recordAudit(tx);
      return { bankCreated, result, changes };
    }),
  );
}

/**
 * Rows per INSERT of a bank's entries. One statement binds at most 65,535 parameters (PostgreSQL
 * refuses more; PGlite breaks its protocol), four per row here: batches keep every statement far
 * below that whatever the list sizes, its text short, and one manifest at its limits takes one
 * statement per section.
 */
const ENTRY_ROWS_PER_STATEMENT = 1_000;

/** `rows` in slices of ENTRY_ROWS_PER_STATEMENT, each with the index of its first row. */
function* rowBatches<T>(rows: readonly T[]): Generator<[number, T[]]> {
  for (let offset = 0; offset < rows.length; offset += ENTRY_ROWS_PER_STATEMENT) {
    yield [offset, rows.slice(offset, offset + ENTRY_ROWS_PER_STATEMENT)];
  }
}

/** The position after the last of `entries` (0 for none); a loop, as spreading a large bank into Math.max overflows the stack. */
function nextPosition(entries: ReadonlyArray<{ position: number }>): number {
  let next = 0;
  for (const { position } of entries) next = Math.max(next, position + 1);
  return next;
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
async function loadBank(db: Database, bankId: string) {
  const [bank] = await db.select().from(banks).where(eq(banks.id, bankId)).limit(1);
  if (!bank) return null;
  const models = await db
    .select({ entry: bankMentalModels.entry })
    .from(bankMentalModels)
    .where(eq(bankMentalModels.bankId, bankId))
    .orderBy(asc(bankMentalModels.position));
  const directives = await db
    .select({ entry: bankDirectives.entry })
    .from(bankDirectives)
    .where(eq(bankDirectives.bankId, bankId))
    .orderBy(asc(bankDirectives.position));
  return { bank, mentalModels: models.map((m) => m.entry), directives: directives.map((d) => d.entry) };
}

function presentSummary(bank: BankRow): z.input<typeof BankSummary> {
  return {
    bank_id: bank.id,
    name: bank.name,
    owner: bank.owner,
    created_at: iso(bank.createdAt),
    updated_at: iso(bank.updatedAt),
    last_applied: bank.lastAppliedTemplate
      ? { template: bank.lastAppliedTemplate, source_revision: bank.lastAppliedRevision, applied_at: isoOrNull(bank.lastAppliedAt)! }
      : null,
  };
}

async function listEmbeddedBanks(db: Database, principal: Principal) {
  const query = db.select().from(banks).orderBy(asc(banks.id));
  const rows = principal.role === "admin" ? await query : await query.where(eq(banks.owner, principal.userId));
  return rows.map(presentSummary);
}

async function readEmbeddedBank(db: Database, principal: Principal, bankId: string): Promise<StoredBankDetail | null> {
  const loaded = await loadBank(db, bankId);
  if (!loaded || (principal.role !== "admin" && loaded.bank.owner !== principal.userId)) return null;
  return {
    ...presentSummary(loaded.bank),
    config: loaded.bank.config,
    mental_models: loaded.mentalModels,
    directives: loaded.directives,
  };
}

/** Deletes the bank (its entries go by foreign key) and its history, in one transaction. */
async function deleteEmbeddedBank(db: Database, principal: Principal, bankId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const deleted = await tx.delete(banks).where(visibleBank(principal, bankId)).returning({ id: banks.id });
    if (deleted.length === 0) return false;
    await deleteImportHistory(tx, bankId);
    await recordAudit(tx);
    return true;
  });
}
