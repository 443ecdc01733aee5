import "server-only";
import { desc, inArray, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { bankImports, templateVersions } from "@/db/schema";
import type { BankSummary } from "@/lib/contracts/banks/schemas";
import { iso } from "@/lib/contracts/fields";

export type NewestVersion = z.input<typeof BankSummary>["newest_version"];

/**
 * The newest version of a template row (CONTRACT §16 `newest_version`), read in the statement that
 * reads the bank: its number, action and restored version as one JSON value, null when the row has
 * no version. A deleted template takes its versions along (cascade), so it has none.
 */
export function newestVersionOf(templateRow: AnyPgColumn): SQL<NewestVersion> {
  return sql<NewestVersion>`(select json_build_object('version', ${templateVersions.version}, 'action', ${templateVersions.action}, 'restored_version', ${templateVersions.restoredVersion}) from ${templateVersions} where ${templateVersions.templateRowId} = ${templateRow} order by ${templateVersions.version} desc limit 1)`.mapWith(
    // postgres.js and PGlite parse json; a driver that hands over its text is read the same.
    (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value) as NonNullable<NewestVersion>,
  );
}

/**
 * CONTRACT §16 `behind`: the template row applied still has a version newer than the one applied.
 * A null version (an import from before versions were kept) compares to nothing, so it is never behind.
 */
export const isBehind = (appliedVersion: number | null, newest: NewestVersion) =>
  newest !== null && appliedVersion !== null && newest.version > appliedVersion;

/** What a bank says of its last import: `last_applied`, `behind` and `newest_version`, and the template row applied (for ?template=). */
export interface Provenance {
  lastApplied: z.input<typeof BankSummary>["last_applied"];
  behind: boolean;
  newestVersion: NewestVersion;
  templateRow: string | null;
}

const NONE: Provenance = { lastApplied: null, behind: false, newestVersion: null, templateRow: null };

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
        newestVersion: newestVersionOf(bankImports.templateRow),
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
        behind: isBehind(row.templateVersion, row.newestVersion),
        newestVersion: row.newestVersion,
        templateRow: row.templateRow,
      });
    }
  }
  return found;
}

/** A bank's provenance as found; none (never imported through us) when it has no recorded import. */
export const provenanceOf = (found: Map<string, Provenance>, bankId: string) => found.get(bankId) ?? NONE;
