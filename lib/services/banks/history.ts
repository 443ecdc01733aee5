import "server-only";
import { desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { bankImports, bankPolicyChanges } from "@/db/schema";
import type { BankHistoryEntry, BankImport, BankPolicyChange, ImportResult } from "@/lib/contracts/banks/schemas";
import { iso } from "@/lib/contracts/fields";

/** One real import into a bank, as recorded (CONTRACT §14). */
export interface ImportRecord {
  bankId: string;
  /** Normalised ref, `personal/{id}` or `server/{id}`. */
  template: string;
  /** The template's row (templates.row_id). */
  templateRow: string;
  sourceRevision: string | null;
  /** The template's version number and locally_modified flag when applied (CONTRACT §16). */
  templateVersion: number;
  locallyModified: boolean;
  /** The principal id whose request applied it. */
  actor: string;
  result: ImportResult;
  at: Date;
}

/**
 * Records an import and answers the time it is recorded at: `at`, or a millisecond after the
 * bank's newest entry when that is not earlier, so "newest first" never has to break a tie
 * (imports one after another can fall in one millisecond). One statement; the embedded store
 * runs it in the import's transaction, under the bank's row lock.
 */
export async function recordImport(db: Database, record: ImportRecord): Promise<Date> {
  const at = sql`${record.at.toISOString()}::timestamptz`;
  const newest = sql`(select max(${bankImports.appliedAt}) from ${bankImports} where ${bankImports.bankId} = ${record.bankId})`;
  const [row] = await db
    .insert(bankImports)
    .values({
      bankId: record.bankId,
      template: record.template,
      templateRow: record.templateRow,
      sourceRevision: record.sourceRevision,
      templateVersion: record.templateVersion,
      locallyModified: record.locallyModified,
      actor: record.actor,
      importResult: record.result,
      // greatest() skips the null of a bank without entries.
      appliedAt: sql`greatest(${at}, ${newest} + interval '1 millisecond')`,
    })
    .returning({ appliedAt: bankImports.appliedAt });
  return row!.appliedAt;
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
  }));
}

const entryTime = (entry: z.input<typeof BankHistoryEntry>) => (entry.kind === "import" ? entry.applied_at : entry.at);

/**
 * A bank's history (CONTRACT §14, §16): its imports and its policy's changes, newest first (the two
 * lists merged by time; at one instant, the policy change first).
 */
export async function bankHistoryEntries(db: Database, bankId: string): Promise<z.input<typeof BankHistoryEntry>[]> {
  const [imports, policies] = await Promise.all([importEntries(db, bankId), policyEntries(db, bankId)]);
  const entries: z.input<typeof BankHistoryEntry>[] = [];
  let i = 0;
  let p = 0;
  while (i < imports.length || p < policies.length) {
    const takePolicy = i >= imports.length || (p < policies.length && entryTime(policies[p]!) >= entryTime(imports[i]!));
    entries.push(takePolicy ? policies[p++]! : imports[i++]!);
  }
  return entries;
}

/** Forgets a bank's imports: its deletion takes its history along (bank_imports has no foreign key). */
export async function deleteImportHistory(db: Database, bankId: string): Promise<void> {
  await db.delete(bankImports).where(eq(bankImports.bankId, bankId));
}
