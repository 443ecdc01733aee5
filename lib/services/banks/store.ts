import "server-only";
import { and, asc, eq, getTableColumns, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { isForeignKeyViolation } from "@/db/errors";
import { bankDirectives, bankMentalModels, banks } from "@/db/schema";
import type { BankSummary, ImportResult, RestoreChanges } from "@/lib/contracts/banks/schemas";
import { conflict, forbidden, notFound } from "@/lib/contracts/errors";
import { iso, isoOrNull } from "@/lib/contracts/fields";
import { type Actor, type ServiceContext, withTransaction } from "@/lib/services/context";
import type {
  BankEdit,
  BankFilter,
  BankRecords,
  BankStore,
  ImportOutcome,
  ImportRequest,
  RestoreRequest,
  StoredBankDetail,
} from "./bank-store";
import { AS_APPLIED, type BankContents, importChanges, importedContents } from "./changes";
import { assertEditable, contentsOf, itemKey, locallyModified, patchedConfig } from "./edits";
import { appliedContents } from "./history";
import { planImport } from "./import-plan";
import { mergeIntoBank } from "./merge";
import { isBehind, type NewestVersion, newestVersionOf } from "./provenance";
import { restoreChanges } from "./restore";

/** A bank's columns and its template's newest version (CONTRACT §16), read in the same statement. */
const bankColumns = { ...getTableColumns(banks), newestVersion: newestVersionOf(banks.lastAppliedTemplateRow) };
type BankRow = typeof banks.$inferSelect & { newestVersion: NewestVersion };
type Entry = Record<string, unknown>;

/** Admins see and change every bank, others their own: the rule of reading, listing, importing and deleting. */
const mayChange = (bank: BankRow, actor: Actor) => actor.role === "admin" || bank.owner === actor.userId;

/**
 * The embedded store (CONTRACT §8): banks in our database, each owned by the user who created it.
 * A real write runs `records` (the bank's history and audit entry) in its own transaction.
 */
export function embeddedBankStore(records: BankRecords): BankStore {
  return {
    importTemplate: (ctx, request) => importIntoEmbeddedStore(ctx, records, request),
    list: (ctx, filter) => listEmbeddedBanks(ctx.db, ctx.actor, filter),
    read: (ctx, bankId) => readEmbeddedBank(ctx.db, ctx.actor, bankId),
    isVisible: async (ctx, bankId) => {
      const [bank] = await ctx.db.select({ id: banks.id }).from(banks).where(visibleBank(ctx.actor, bankId)).limit(1);
      return bank !== undefined;
    },
    remove: (ctx, bankId) => deleteEmbeddedBank(ctx, records, bankId),
    edit: (ctx, bankId, edit) => editEmbeddedBank(ctx, records, bankId, edit),
    restore: (ctx, bankId, request) => restoreEmbeddedBank(ctx, records, bankId, request),
  };
}

/** The SQL of mayChange for one bank id. */
const visibleBank = (actor: Actor, bankId: string) =>
  actor.role === "admin" ? eq(banks.id, bankId) : and(eq(banks.id, bankId), eq(banks.owner, actor.userId));

/**
 * Applies a template to a bank of the embedded store in one transaction: creates the bank
 * when missing (owned by the caller), merges config overrides field by field, replaces or adds
 * mental models and directives. The changes are computed from what the transaction read, so a
 * dry run previews exactly what the import does. A real import runs its records (history entry,
 * then audit entry: the bank before, null when the import creates it, and after) in the same
 * transaction. A failure anywhere leaves the bank as it was.
 */
async function importIntoEmbeddedStore(ctx: ServiceContext, records: BankRecords, request: ImportRequest): Promise<ImportOutcome> {
  const { bankId, dryRun } = request;
  return withCallerPresent(ctx.actor, () =>
    withTransaction(ctx, async (tx) => {
      const { db, actor } = tx;
      const now = new Date();
      const { bank, bankCreated } = await lockOrCreateBank(db, actor, request, now);
      if (bank && !bankCreated && !mayChange(bank, actor)) {
        throw forbidden(`Bank ${bankId} belongs to another user; only its owner or an admin may apply templates to it.`);
      }

      // In their order (as the bank answers them): the audit's before is read here too.
      const models = bank ? await entryRows(db, bankMentalModels, bankId) : [];
      const directives = bank ? await entryRows(db, bankDirectives, bankId) : [];
      // A bank created just now by this import is empty: its before is the empty bank either way.
      const local: BankContents = {
        config: bank?.config ?? {},
        mentalModels: models.map((m) => m.entry),
        directives: directives.map((d) => d.entry),
      };
      const applied = bank && !bankCreated ? await appliedContents(db, bankId) : null;
      // A merge into a bank that has content; a bank that has none has no edits to keep.
      const merge =
        request.merge && bank && !bankCreated
          ? mergeIntoBank(bankId, { template: request.template.manifest, local, applied, shape: AS_APPLIED }, request.merge.resolutions)
          : null;
      const plan = planImport(merge?.manifest ?? request.template.manifest, {
        mentalModelIds: new Set(models.map((m) => m.key)),
        directiveNames: new Set(directives.map((d) => d.key)),
      });
      const changes = importChanges(plan, local);
      const result: ImportResult = { bank_id: bankId, ...plan.result, operation_ids: [], dry_run: dryRun };
      const before =
        bank && !bankCreated ? storedDetail({ bank, mentalModels: local.mentalModels, directives: local.directives, applied }) : null;
      // Checked on a dry run too, so it answers what the import would.
      await records.precondition(tx, async () => before);
      if (dryRun) return { bankCreated: false, result, changes };

      // What the import leaves, written below as it is here: the history entry keeps it.
      const content = importedContents({ ...local, config: bank!.config }, plan);
      // After a merge the history keeps what the template alone wrote (the next merge's base) beside what the bank holds.
      const appliedAt = await records.importHistory(tx, {
        request,
        result,
        at: now,
        ...(merge ? { content: merge.upstream, written: content } : { content }),
      });
      const [updated] = await db
        .update(banks)
        .set({
          config: content.config!,
          ...(request.name !== undefined ? { name: request.name } : {}),
          lastAppliedTemplate: request.template.ref,
          lastAppliedTemplateRow: request.template.rowId,
          lastAppliedRevision: request.template.revision,
          lastAppliedVersion: request.template.version,
          lastAppliedLocallyModified: request.template.locallyModified,
          lastAppliedAt: appliedAt,
          updatedAt: now,
        })
        .where(eq(banks.id, bankId))
        .returning(bankColumns);

      // New entries go after the existing ones; a replaced entry keeps its place (the update sets
      // only `entry`). Ids and names are unique within a valid manifest.
      const firstModel = nextPosition(models);
      for (const [offset, batch] of rowBatches(plan.mentalModels)) {
        await db
          .insert(bankMentalModels)
          .values(batch.map((entry, i) => ({ bankId, id: entry.id, entry, position: firstModel + offset + i })))
          .onConflictDoUpdate({ target: [bankMentalModels.bankId, bankMentalModels.id], set: { entry: sql`excluded.entry` } });
      }
      const firstDirective = nextPosition(directives);
      for (const [offset, batch] of rowBatches(plan.directives)) {
        await db
          .insert(bankDirectives)
          .values(batch.map((entry, i) => ({ bankId, name: entry.name, entry, position: firstDirective + offset + i })))
          .onConflictDoUpdate({ target: [bankDirectives.bankId, bankDirectives.name], set: { entry: sql`excluded.entry` } });
      }
      const after = storedDetail({
        bank: updated!,
        mentalModels: content.mentalModels,
        directives: content.directives,
        applied: merge?.upstream ?? content,
      });
      await records.importAudit(tx, { bankId, before, after });
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
async function withCallerPresent<T>(actor: Actor, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw notFound(`No user ${actor.userId} exists.`);
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
async function lockOrCreateBank(db: Database, actor: Actor, request: ImportRequest, now: Date) {
  const { bankId } = request;
  for (let attempt = 0; attempt < BANK_LOCK_ATTEMPTS; attempt++) {
    const [bank] = await db.select(bankColumns).from(banks).where(eq(banks.id, bankId)).for("update", { of: banks });
    if (bank || request.dryRun) return { bank, bankCreated: false };
    const [created] = await db
      .insert(banks)
      .values({ id: bankId, owner: actor.userId, name: request.name ?? bankId, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    // A bank created just now has no template applied yet.
    if (created) return { bank: { ...created, newestVersion: null }, bankCreated: true };
    // Another import created it between our two statements: lock theirs on the next attempt.
  }
  throw conflict(`Bank ${bankId} is being created and deleted concurrently; try again.`);
}

interface LoadedBank {
  bank: BankRow;
  mentalModels: Entry[];
  directives: Entry[];
  /** What the bank's last import left (its history keeps it); null when unknown. */
  applied: BankContents | null;
}

/**
 * A bank with its mental models and directives in the order they were first added, and what its
 * last import left. With `lock` (inside a transaction) the bank row is locked for update until the
 * transaction ends.
 */
async function loadBank(db: Database, bankId: string, lock = false): Promise<LoadedBank | null> {
  const query = db.select(bankColumns).from(banks).where(eq(banks.id, bankId));
  const [bank] = lock ? await query.for("update", { of: banks }) : await query.limit(1);
  if (!bank) return null;
  const models = await entryRows(db, bankMentalModels, bankId);
  const directives = await entryRows(db, bankDirectives, bankId);
  const applied = await appliedContents(db, bankId);
  return { bank, mentalModels: models.map((m) => m.entry), directives: directives.map((d) => d.entry), applied };
}

/** A bank's mental models (keyed by id) or directives (by name), in the order they were first added. */
async function entryRows(db: Database, table: typeof bankMentalModels | typeof bankDirectives, bankId: string) {
  const key = table === bankMentalModels ? bankMentalModels.id : bankDirectives.name;
  return db
    .select({ key, position: table.position, entry: table.entry })
    .from(table)
    .where(eq(table.bankId, bankId))
    .orderBy(asc(table.position));
}

function presentSummary(bank: BankRow): z.input<typeof BankSummary> {
  return {
    bank_id: bank.id,
    name: bank.name,
    owner: bank.owner,
    created_at: iso(bank.createdAt),
    updated_at: iso(bank.updatedAt),
    last_applied: bank.lastAppliedTemplate
      ? {
          template: bank.lastAppliedTemplate,
          source_revision: bank.lastAppliedRevision,
          template_version: bank.lastAppliedVersion,
          locally_modified: bank.lastAppliedLocallyModified,
          applied_at: isoOrNull(bank.lastAppliedAt)!,
        }
      : null,
    behind: isBehind(bank.lastAppliedVersion, bank.newestVersion),
    newest_version: bank.newestVersion,
  };
}

/** One query whatever the number of banks: the template's newest version is a column of it. */
async function listEmbeddedBanks(db: Database, actor: Actor, filter: BankFilter = {}) {
  const rows = await db
    .select(bankColumns)
    .from(banks)
    .where(
      and(
        actor.role === "admin" ? undefined : eq(banks.owner, actor.userId),
        filter.templateRow === undefined ? undefined : eq(banks.lastAppliedTemplateRow, filter.templateRow),
      ),
    )
    .orderBy(asc(banks.id));
  return rows.map(presentSummary);
}

function storedDetail({ bank, mentalModels, directives, applied }: LoadedBank): StoredBankDetail {
  const detail = { ...presentSummary(bank), config: bank.config, mental_models: mentalModels, directives };
  return { ...detail, locally_modified: locallyModified(contentsOf(detail), applied, AS_APPLIED) };
}

async function readEmbeddedBank(db: Database, actor: Actor, bankId: string): Promise<StoredBankDetail | null> {
  const loaded = await loadBank(db, bankId);
  return loaded && mayChange(loaded.bank, actor) ? storedDetail(loaded) : null;
}

/**
 * Deletes the bank (its entries go by foreign key), in one transaction with its records (its
 * history and policy go too; the audit entry holds the bank before).
 */
async function deleteEmbeddedBank(ctx: ServiceContext, records: BankRecords, bankId: string): Promise<boolean> {
  return withTransaction(ctx, async (tx) => {
    const { db, actor } = tx;
    const loaded = await loadBank(db, bankId, true);
    if (!loaded || !mayChange(loaded.bank, actor)) return false;
    const before = storedDetail(loaded);
    await db.delete(banks).where(eq(banks.id, bankId));
    await records.removal(tx, { bankId, before });
    return true;
  });
}

/**
 * Edits a bank in place (CONTRACT §21) in one transaction holding its row: refused (403) unless the
 * caller may apply templates to it, as an import into an existing bank is; a mental model or directive
 * put whole (a new one after the others, a replaced one in its place) or removed; the name and config
 * set. The bank is read again for the edit's records (history entry, audit entry) and answer.
 */
async function editEmbeddedBank(ctx: ServiceContext, records: BankRecords, bankId: string, edit: BankEdit) {
  return withTransaction(ctx, async (tx) => {
    const { db, actor } = tx;
    const loaded = await loadBank(db, bankId, true);
    if (!loaded) throw notFound(`No bank ${bankId} is visible to you.`);
    if (!mayChange(loaded.bank, actor)) throw forbidden(`Bank ${bankId} belongs to another user; only its owner or an admin may edit it.`);
    const before = storedDetail(loaded);
    assertEditable(bankId, before, edit);
    await records.precondition(tx, async () => before);
    await db
      .update(banks)
      .set({
        updatedAt: new Date(),
        ...(edit.kind === "settings" && edit.name !== undefined ? { name: edit.name } : {}),
        ...(edit.kind === "settings" && edit.config !== undefined ? { config: patchedConfig(loaded.bank.config, edit.config) } : {}),
      })
      .where(eq(banks.id, bankId));
    if (edit.kind !== "settings") await writeEntry(db, bankId, edit);
    const after = storedDetail((await loadBank(db, bankId))!);
    return records.edit(tx, { bankId, edit, before, after });
  });
}

/**
 * Puts back a bank's content (CONTRACT §21) in one transaction holding its row, refused (403) as an edit
 * is: its config overrides become the target's, and its mental models and directives exactly the
 * target's, in the target's order. The changes are computed from what the transaction read, so a dry
 * run answers what the restore does.
 */
async function restoreEmbeddedBank(
  ctx: ServiceContext,
  records: BankRecords,
  bankId: string,
  request: RestoreRequest,
): Promise<RestoreChanges> {
  return withTransaction(ctx, async (tx) => {
    const { db, actor } = tx;
    const loaded = await loadBank(db, bankId, true);
    if (!loaded) throw notFound(`No bank ${bankId} is visible to you.`);
    if (!mayChange(loaded.bank, actor))
      throw forbidden(`Bank ${bankId} belongs to another user; only its owner or an admin may restore it.`);
    const before = storedDetail(loaded);
    const target = await request.target(tx);
    await records.precondition(tx, async () => before);
    const changes = restoreChanges(contentsOf(before), target, AS_APPLIED);
    if (request.dryRun) return changes;
    await db
      .update(banks)
      .set({ config: target.config ?? loaded.bank.config, updatedAt: new Date() })
      .where(eq(banks.id, bankId));
    await db.delete(bankMentalModels).where(eq(bankMentalModels.bankId, bankId));
    await db.delete(bankDirectives).where(eq(bankDirectives.bankId, bankId));
    for (const [offset, batch] of rowBatches(target.mentalModels)) {
      await db.insert(bankMentalModels).values(batch.map((entry, i) => ({ bankId, id: String(entry.id), entry, position: offset + i })));
    }
    for (const [offset, batch] of rowBatches(target.directives)) {
      await db.insert(bankDirectives).values(batch.map((entry, i) => ({ bankId, name: String(entry.name), entry, position: offset + i })));
    }
    const after = storedDetail((await loadBank(db, bankId))!);
    await records.restore(tx, { bankId, restoredFrom: request.restoredFrom, content: contentsOf(after), before, after });
    return changes;
  });
}

/** Where a bank's mental models and directives are kept, each by its key. */
const ENTRY_TABLES = {
  mental_model: { table: bankMentalModels, key: bankMentalModels.id, field: "id" },
  directive: { table: bankDirectives, key: bankDirectives.name, field: "name" },
} as const;

/** Puts one mental model or directive whole (a new one after the others, a replaced one in its place) or removes it. */
async function writeEntry(db: Database, bankId: string, edit: Exclude<BankEdit, { kind: "settings" }>) {
  const { table, key, field } = ENTRY_TABLES[edit.kind];
  const keyValue = itemKey(edit);
  if (edit.entry === null) {
    await db.delete(table).where(and(eq(table.bankId, bankId), eq(key, keyValue)));
    return;
  }
  // After the others: used only when the entry is new.
  const [{ position }] = (await db
    .select({ position: sql<number>`coalesce(max(${table.position}) + 1, 0)::int` })
    .from(table)
    .where(eq(table.bankId, bankId))) as [{ position: number }];
  const row = { bankId, [field]: keyValue, entry: edit.entry, position };
  await db
    .insert(table)
    .values(row as typeof bankMentalModels.$inferInsert & typeof bankDirectives.$inferInsert)
    .onConflictDoUpdate({ target: [table.bankId, key], set: { entry: edit.entry } });
}

/**
 * The banks of the embedded store that a new version of a template row (`version`, just recorded)
 * left behind (CONTRACT §16, the `bank.behind` event of §20): those that had applied the version
 * before it, so were not behind until now, as the bank list shows them.
 */
export async function banksLeftBehind(db: Database, { templateRow, version }: { templateRow: string; version: number }) {
  const rows = await db
    .select(bankColumns)
    .from(banks)
    .where(and(eq(banks.lastAppliedTemplateRow, templateRow), eq(banks.lastAppliedVersion, version - 1)))
    .orderBy(asc(banks.id));
  return rows.map(presentSummary);
}
