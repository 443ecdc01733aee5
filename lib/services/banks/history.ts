import "server-only";
import { desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { bankImports } from "@/db/schema";
import type { BankImport, ImportResult } from "@/lib/contracts/banks/schemas";
import { iso } from "@/lib/contracts/fields";

/** One real import into a bank, as recorded (CONTRACT §14). */
export interface ImportRecord {
  bankId: string;
  /** Normalised ref, `personal/{id}` or `server/{id}`. */
  template: string;
  sourceRevision: string | null;
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
      sourceRevision: record.sourceRevision,
      actor: record.actor,
      importResult: record.result,
      // greatest() skips the null of a bank without entries.
      appliedAt: sql`greatest(${at}, ${newest} + interval '1 millisecond')`,
    })
    .returning({ appliedAt: bankImports.appliedAt });
  return row!.appliedAt;
}

/** A bank's imports, newest first. */
export async function importHistory(db: Database, bankId: string): Promise<z.input<typeof BankImport>[]> {
  const rows = await db.select().from(bankImports).where(eq(bankImports.bankId, bankId)).orderBy(desc(bankImports.appliedAt));
  return rows.map((row) => ({
    template: row.template,
    source_revision: row.sourceRevision,
    applied_at: iso(row.appliedAt),
    actor: row.actor,
    import_result: row.importResult as ImportResult,
  }));
}

/** Forgets a bank's imports: its deletion takes its history along (bank_imports has no foreign key). */
export async function deleteImportHistory(db: Database, bankId: string): Promise<void> {
  await db.delete(bankImports).where(eq(bankImports.bankId, bankId));
}
