import { asc, eq } from "drizzle-orm";
import type { z } from "zod";
import { banks } from "@/db/schema";
import { iso, isoOrNull } from "@/lib/api/fields";
import { forbidden, notFound } from "@/lib/http/errors";
import type { Principal } from "@/lib/identity/principal";
import type { AppContext } from "@/lib/server/app";
import type { BankTemplateManifest } from "@/lib/templates/manifest";
import type { BankDetail, BankSummary, CreateBankRequest, ImportResult } from "./schemas";
import { hindsightClient } from "./remote";
import { importIntoEmbeddedStore, loadBank, type BankRow, type ImportRequest } from "./store";
import { resolveTemplateRef } from "./template-ref";

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

/** Applies a template to a new or existing bank (or computes what it would do, on a dry run). */
export async function createBankFromTemplate(
  app: AppContext,
  principal: Principal,
  input: z.output<typeof CreateBankRequest>,
  dryRun: boolean,
) {
  const template = await resolveTemplateRef(app.db, principal, input.template);
  const request = {
    bankId: input.bank_id,
    name: input.name,
    template: {
      ref: template.ref,
      revision: template.row.sourceRevision,
      manifest: template.row.manifest as BankTemplateManifest,
    },
    dryRun,
  };
  const store = app.config.hindsight ? importIntoHindsight : importIntoEmbeddedStore;
  const { bankCreated, result } = await store(app, principal, request);
  return answer(input, bankCreated, result);
}

/**
 * The remote store (CONTRACT §8): Hindsight decides whether the bank exists and imports the
 * manifest; nothing is kept locally. Hindsight records no owners, so applying a template to a
 * bank that already exists there is for admins only.
 */
async function importIntoHindsight(app: AppContext, principal: Principal, request: ImportRequest) {
  const client = hindsightClient(app.config.hindsight!);
  const exists = await client.bankExists(request.bankId);
  if (exists && principal.role !== "admin") {
    throw forbidden(`Bank ${request.bankId} already exists in Hindsight, which records no owners; only an admin may apply templates to it.`);
  }
  const result = await client.importManifest(request.bankId, request.template.manifest, request.dryRun);
  return { bankCreated: !exists && !request.dryRun, result };
}

function answer(input: z.output<typeof CreateBankRequest>, bankCreated: boolean, result: ImportResult) {
  return { bank_id: input.bank_id, template: input.template, bank_created: bankCreated, import_result: result };
}

/** Admins see every bank; others the banks they own. Sorted by id. */
export async function listBanks(app: AppContext, principal: Principal) {
  const query = app.db.select().from(banks).orderBy(asc(banks.id));
  const rows = principal.role === "admin" ? await query : await query.where(eq(banks.owner, principal.userId));
  return { banks: rows.map(presentSummary) };
}

/** One bank with config, mental models and directives; 404 unless the caller is admin or owner. */
export async function getBank(app: AppContext, principal: Principal, bankId: string): Promise<z.input<typeof BankDetail>> {
  const loaded = await loadBank(app.db, bankId);
  if (!loaded || (principal.role !== "admin" && loaded.bank.owner !== principal.userId)) {
    throw notFound(`No bank ${bankId} is visible to you.`);
  }
  return {
    ...presentSummary(loaded.bank),
    config: loaded.bank.config,
    mental_models: loaded.mentalModels,
    directives: loaded.directives,
  };
}
