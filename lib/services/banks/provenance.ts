import "server-only";
import { desc, inArray, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { bankImports, templateVersions } from "@/db/schema";
import type { BankSummary } from "@/lib/contracts/banks/schemas";
import { iso } from "@/lib/contracts/fields";

/**
 * CONTRACT §16 `behind`, in SQL: the template row applied still has a version newer than the one
 * applied. A deleted template takes its versions along (cascade), and a null version (an import
 * from before versions were kept) compares to nothing, so both are false.
 */
export function newerVersionExists(templateRow: AnyPgColumn, appliedVersion: AnyPgColumn): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${templateVersions} where ${templateVersions.templateRowId} = ${templateRow} and ${templateVersions.version} > ${appliedVersion})`;
}

/** What a bank says of its last import: `last_applied` and `behind`, and the template row applied (for ?template=). */
export interface Provenance {
  lastApplied: z.input<typeof BankSummary>["last_applied"];
  behind: boolean;
  templateRow: string | null;
}

const NONE: Provenance = { lastApplied: null, behind: false, templateRow: null };

/** Bank ids per query: far below the parameters one statement may bind. */
const IDS_PER_QUERY = 1_000;

/**
 * Each bank's provenance from its newest recorded import (the remote store keeps no bank rows of
 * ours, so its history is what it knows): one query per thousand banks, none without banks.
 */
export async function provenanceFromHistory(db: Database, bankIds: readonly string[]): Promise<Map<string, Provenance>> {
  const found = new Map<string, Provenance>();
  for (let offset = 0; offset < bankIds.length; offset += IDS_PER_QUERY) {
    const rows = await db
      .selectDistinctOn([bankImports.bankId], {
        bankId: bankImports.bankId,
        template: bankImports.template,
        templateRow: bankImports.templateRow,
        sourceRevision: bankImports.sourceRevision,
        templateVersion: bankImports.templateVersion,
        locallyModified: bankImports.locallyModified,
        appliedAt: bankImports.appliedAt,
        behind: newerVersionExists(bankImports.templateRow, bankImports.templateVersion),
      })
      .from(bankImports)
      .where(inArray(bankImports.bankId, bankIds.slice(offset, offset + IDS_PER_QUERY)))
      .orderBy(bankImports.bankId, desc(bankImports.appliedAt));
    for (const row of rows) {
      found.set(row.bankId, {
        lastApplied: {
          template: row.template,
          source_revision: row.sourceRevision,
          template_version: row.templateVersion,
          locally_modified: row.locallyModified,
          applied_at: iso(row.appliedAt),
        },
        behind: row.behind,
        templateRow: row.templateRow,
      });
    }
  }
  return found;
}

/** A bank's provenance as found; none (never imported through us) when it has no recorded import. */
export const provenanceOf = (found: Map<string, Provenance>, bankId: string) => found.get(bankId) ?? NONE;
