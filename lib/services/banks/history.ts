import "server-only";
import { and, asc, desc, eq, gt, lte, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { bankEdits, bankImports, bankPolicies, bankPolicyChanges, bankRestores } from "@/db/schema";
import type { BankEdit, BankHistoryEntry, BankImport, BankPolicyChange, BankRestore, ImportResult } from "@/lib/contracts/banks/schemas";
import { iso } from "@/lib/contracts/fields";
import type { AppliedTemplate } from "./bank-store";
import type { BankContents } from "./changes";

/** One real import into a bank, as recorded (CONTRACT §14, §16). */
export interface ImportRecord {
  bankId: string;
  /** The template as applied: ref, row, revision, version and local-edit mark. */
  template: AppliedTemplate;
  /** The id of the actor (user or service account) whose request applied it. */
  actor: string;
  result: ImportResult;
  at: Date;
  /** The bank's content as the import left it (CONTRACT §21); null when its store could not say. After a merge, what the template alone wrote. */
  content: BankContents | null;
  /** After a merge that kept local edits: what the bank held (bank_imports.written). */
  written?: BankContents | null;
}

/**
 * The time a new history entry of the bank is recorded at (SQL): `at`, or a millisecond after the
 * bank's newest entry of either kind when that is not earlier, so entries one after another keep
 * their order even within one millisecond. greatest() skips the nulls of a bank without entries.
 */
function nextEntryTime(bankId: string, at: Date) {
  const newestImport = sql`(select max(${bankImports.appliedAt}) from ${bankImports} where ${bankImports.bankId} = ${bankId})`;
  const newestChange = sql`(select max(${bankPolicyChanges.at}) from ${bankPolicyChanges} where ${bankPolicyChanges.bankId} = ${bankId})`;
  const newestEdit = sql`(select max(${bankEdits.at}) from ${bankEdits} where ${bankEdits.bankId} = ${bankId})`;
  const newestRestore = sql`(select max(${bankRestores.at}) from ${bankRestores} where ${bankRestores.bankId} = ${bankId})`;
  const interval = sql`interval '1 millisecond'`;
  return sql`greatest(${at.toISOString()}::timestamptz, ${newestImport} + ${interval}, ${newestChange} + ${interval}, ${newestEdit} + ${interval}, ${newestRestore} + ${interval})`;
}

/**
 * Records an import and answers the time it is recorded at: `at`, or a millisecond after the
 * bank's newest entry (of either kind) when that is not earlier, so "newest first" never has to break a tie
 * (imports one after another can fall in one millisecond). One statement; the embedded store
 * runs it in the import's transaction, under the bank's row lock.
 */
export async function recordImport(db: Database, record: ImportRecord): Promise<Date> {
  const [row] = await db
    .insert(bankImports)
    .values({
      bankId: record.bankId,
      template: record.template.ref,
      templateRow: record.template.rowId,
      sourceRevision: record.template.revision,
      templateVersion: record.template.version,
      locallyModified: record.template.locallyModified,
      actor: record.actor,
      importResult: record.result,
      content: record.content as Record<string, unknown> | null,
      written: (record.written ?? null) as Record<string, unknown> | null,
      appliedAt: nextEntryTime(record.bankId, record.at),
    })
    .returning({ appliedAt: bankImports.appliedAt });
  return row!.appliedAt;
}

/**
 * What the bank's last import left (CONTRACT §21): the content its newest import recorded; null when
 * it has none, or its newest was recorded before imports kept it.
 */
export async function appliedContents(db: Database, bankId: string): Promise<BankContents | null> {
  const [row] = await db
    .select({ content: bankImports.content })
    .from(bankImports)
    .where(eq(bankImports.bankId, bankId))
    .orderBy(desc(bankImports.appliedAt))
    .limit(1);
  return (row?.content ?? null) as BankContents | null;
}

/** One edit of a bank in place (CONTRACT §21), as its history entry records it. */
export interface EditRecord {
  bankId: string;
  /** The id of the actor (user or service account) whose request edited the bank. */
  actor: string;
  /** What the edit touched before and after it (lib/services/banks/edits.ts). */
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  at: Date;
}

/** Records an edit, at `at` or a millisecond after the bank's newest entry, as recordImport records an import. */
export async function recordEdit(db: Database, record: EditRecord): Promise<void> {
  await db.insert(bankEdits).values({
    bankId: record.bankId,
    actor: record.actor,
    before: record.before,
    after: record.after,
    at: nextEntryTime(record.bankId, record.at),
  });
}

/** A bank's imports, newest first. */
async function importEntries(db: Database, bankId: string): Promise<z.input<typeof BankImport>[]> {
  const rows = await db.select().from(bankImports).where(eq(bankImports.bankId, bankId)).orderBy(desc(bankImports.appliedAt));
  return rows.map((row) => ({
    kind: "import" as const,
    id: row.id,
    template: row.template,
    source_revision: row.sourceRevision,
    template_version: row.templateVersion,
    locally_modified: row.locallyModified,
    applied_at: iso(row.appliedAt),
    actor: row.actor,
    import_result: row.importResult as ImportResult,
  }));
}

/** The changes of a bank's policy, newest first. */
async function policyEntries(db: Database, bankId: string): Promise<z.input<typeof BankPolicyChange>[]> {
  const rows = await db.select().from(bankPolicyChanges).where(eq(bankPolicyChanges.bankId, bankId)).orderBy(desc(bankPolicyChanges.at));
  return rows.map((row) => ({
    kind: "policy" as const,
    id: row.id,
    actor: row.actor,
    at: iso(row.at),
    before: row.before,
    after: row.after,
    restored_from: row.restoredFrom,
  }));
}

/** A bank's edits in place, newest first. */
async function editEntries(db: Database, bankId: string): Promise<z.input<typeof BankEdit>[]> {
  const rows = await db.select().from(bankEdits).where(eq(bankEdits.bankId, bankId)).orderBy(desc(bankEdits.at));
  return rows.map((row) => ({
    kind: "edit" as const,
    id: row.id,
    actor: row.actor,
    at: iso(row.at),
    before: row.before,
    after: row.after,
  }));
}

/** One restore of a bank's content (CONTRACT §21), as its history entry records it. */
export interface RestoreRecord {
  bankId: string;
  /** The id of the actor (user or service account) whose request restored the bank. */
  actor: string;
  /** The history entry whose content was put back. */
  restoredFrom: string;
  /** The bank's content as the restore left it, as its store reported it (what a later restore starts from). */
  content: BankContents;
  at: Date;
}

/** Records a restore, at `at` or a millisecond after the bank's newest entry, as recordImport records an import. */
export async function recordRestore(db: Database, record: RestoreRecord): Promise<void> {
  await db.insert(bankRestores).values({
    bankId: record.bankId,
    actor: record.actor,
    restoredFrom: record.restoredFrom,
    content: record.content as unknown as Record<string, unknown>,
    at: nextEntryTime(record.bankId, record.at),
  });
}

/** A bank's restores, newest first. */
async function restoreEntries(db: Database, bankId: string): Promise<z.input<typeof BankRestore>[]> {
  const rows = await db.select().from(bankRestores).where(eq(bankRestores.bankId, bankId)).orderBy(desc(bankRestores.at));
  return rows.map((row) => ({ kind: "restore" as const, id: row.id, actor: row.actor, at: iso(row.at), restored_from: row.restoredFrom }));
}

/** Most edits a restore replays on top of the content an import or restore kept: past it, the entry is not restorable. */
const MAX_REPLAYED_EDITS = 10_000;

/**
 * What a restore to one history entry of the bank starts from (CONTRACT §21): the content kept by the
 * newest import or restore at or before that entry (`content`; null when that one kept none: recorded
 * before contents were kept, or none exists), and the edits after it up to the entry, oldest first,
 * which replayed on it give the bank's content right after the entry. Null when `entryId` is no import,
 * edit or restore of this bank. Entries are recorded a millisecond apart at least, so times order them.
 */
export async function contentHistoryUpTo(
  db: Database,
  bankId: string,
  entryId: string,
): Promise<{ content: BankContents | null; edits: Array<{ after: Record<string, unknown> }> } | null> {
  const times = await Promise.all(
    [
      { table: bankImports, at: bankImports.appliedAt },
      { table: bankEdits, at: bankEdits.at },
      { table: bankRestores, at: bankRestores.at },
    ].map(async ({ table, at }) => {
      const [row] = await db
        .select({ at })
        .from(table)
        .where(and(eq(table.bankId, bankId), eq(table.id, entryId)))
        .limit(1);
      return row?.at;
    }),
  );
  const until = times.find((time) => time !== undefined);
  if (until === undefined) return null;
  const [imported] = await db
    .select({
      at: bankImports.appliedAt,
      content: sql<Record<string, unknown> | null>`coalesce(${bankImports.written}, ${bankImports.content})`,
    })
    .from(bankImports)
    .where(and(eq(bankImports.bankId, bankId), lte(bankImports.appliedAt, until)))
    .orderBy(desc(bankImports.appliedAt))
    .limit(1);
  const [restored] = await db
    .select({ at: bankRestores.at, content: bankRestores.content })
    .from(bankRestores)
    .where(and(eq(bankRestores.bankId, bankId), lte(bankRestores.at, until)))
    .orderBy(desc(bankRestores.at))
    .limit(1);
  const start = !imported || (restored && restored.at > imported.at) ? restored : imported;
  if (!start?.content) return { content: null, edits: [] };
  const edits = await db
    .select({ after: bankEdits.after })
    .from(bankEdits)
    .where(and(eq(bankEdits.bankId, bankId), gt(bankEdits.at, start.at), lte(bankEdits.at, until)))
    .orderBy(asc(bankEdits.at))
    .limit(MAX_REPLAYED_EDITS + 1);
  if (edits.length > MAX_REPLAYED_EDITS) return { content: null, edits: [] };
  return { content: start.content as unknown as BankContents, edits };
}

const entryTime = (entry: z.input<typeof BankHistoryEntry>) => (entry.kind === "import" ? entry.applied_at : entry.at);

/**
 * A bank's history (CONTRACT §14, §16, §21): its imports, its policy's changes, its edits and restores, newest
 * first (merged by time; entries are recorded a millisecond apart, and at one instant a policy change
 * would come first, then a restore, then an edit). Each list comes sorted, and the sort is stable.
 */
export async function bankHistoryEntries(db: Database, bankId: string): Promise<z.input<typeof BankHistoryEntry>[]> {
  const lists = await Promise.all([
    policyEntries(db, bankId),
    restoreEntries(db, bankId),
    editEntries(db, bankId),
    importEntries(db, bankId),
  ]);
  // ISO timestamps of one format compare as text.
  return lists.flat().sort((a, b) => (entryTime(a) < entryTime(b) ? 1 : entryTime(a) > entryTime(b) ? -1 : 0));
}

/** The advisory lock class of bank policies (the two-key form: its space never meets the one-key locks). */
const POLICY_LOCK_CLASS = 2016;

/**
 * The bank's policy lock, held until the transaction ends (`db` a transaction). A first PUT has no
 * row to lock, so this transaction-level advisory lock on the bank id serialises every writer of
 * that bank's policy (PUT, DELETE, restore, and the bank's deletion): each reads what the previous
 * one left, and the history entries chain.
 */
export async function holdPolicyLock(db: Database, bankId: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${POLICY_LOCK_CLASS}, hashtext(${bankId}))`);
}

/**
 * What a bank's deletion takes along (CONTRACT §19): everything of ours kept under its id, none of
 * it held by a foreign key (the remote store's banks have no row here): its imports, edits and restores, its policy
 * and the policy's changes, so a bank created later under that id starts without a policy or
 * history, and nobody is left with a policy they can neither read nor delete. The audit entries
 * stay, the policy's last document with them. Call it in the deletion's transaction holding the
 * policy lock (holdPolicyLock), so a policy write under way commits before and none slips in between.
 */
export async function deleteBankRecords(db: Database, bankId: string): Promise<void> {
  await db.delete(bankImports).where(eq(bankImports.bankId, bankId));
  await db.delete(bankEdits).where(eq(bankEdits.bankId, bankId));
  await db.delete(bankRestores).where(eq(bankRestores.bankId, bankId));
  await db.delete(bankPolicyChanges).where(eq(bankPolicyChanges.bankId, bankId));
  await db.delete(bankPolicies).where(eq(bankPolicies.bankId, bankId));
}

/** One PUT or DELETE of a bank's policy (CONTRACT §16): the document before and after (null: none). */
export interface PolicyChangeRecord {
  bankId: string;
  /** The id of the actor (user or service account) whose request changed the policy. */
  actor: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The entry a restore put back; null for a plain PUT or DELETE. */
  restoredFrom: string | null;
  at: Date;
}

/**
 * Records a change of a bank's policy, as recordImport records an import: at `at`, or a millisecond
 * after the bank's newest entry of either kind when that is not earlier, so consecutive changes and
 * an import just before them keep their order. Call it in the change's transaction, holding the
 * bank's policy lock (lib/services/policy), so `before` is what the previous change left.
 */
export async function recordPolicyChange(db: Database, record: PolicyChangeRecord): Promise<void> {
  await db.insert(bankPolicyChanges).values({
    bankId: record.bankId,
    actor: record.actor,
    before: record.before,
    after: record.after,
    restoredFrom: record.restoredFrom,
    at: nextEntryTime(record.bankId, record.at),
  });
}

/** The policy change `id` of this bank (what a restore puts back); null when the bank has no such entry. */
export async function findPolicyChange(
  db: Database,
  bankId: string,
  id: string,
): Promise<{ id: string; after: Record<string, unknown> | null } | null> {
  const [row] = await db
    .select({ id: bankPolicyChanges.id, after: bankPolicyChanges.after })
    .from(bankPolicyChanges)
    .where(and(eq(bankPolicyChanges.bankId, bankId), eq(bankPolicyChanges.id, id)))
    .limit(1);
  return row ?? null;
}
