import "server-only";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { bankPolicies } from "@/db/schema";
import type { BankDetail, BankHistory, CreateBankRequest } from "@/lib/contracts/banks/schemas";
import { notFound } from "@/lib/contracts/errors";
import { type BankExport, type BankTemplateManifest, MANIFEST_VERSION } from "@/lib/contracts/templates/manifest";
import type { AppContext } from "@/lib/services/context";
import type { Principal } from "@/lib/services/identity/principal";
import type { BankStore } from "./bank-store";
import { importHistory } from "./history";
import { remoteBankStore } from "./remote-store";
import { embeddedBankStore } from "./store";

/** The store of this configuration: Hindsight when HINDSIGHT_API_URL is set, else the embedded one. */
function bankStore(app: AppContext): BankStore {
  return app.config.hindsight ? remoteBankStore(app.db, app.config.hindsight) : embeddedBankStore(app.db);
}

import { resolveTemplateRef } from "./template-ref";

const invisible = (bankId: string) => notFound(`No bank ${bankId} is visible to you.`);

/** Applies a template to a new or existing bank (or computes what it would do, on a dry run). */
export async function createBankFromTemplate(
  app: AppContext,
  principal: Principal,
  input: z.output<typeof CreateBankRequest>,
  dryRun: boolean,
) {
  const template = await resolveTemplateRef(app.db, principal, input.template);
  const { bankCreated, result, changes } = await bankStore(app).importTemplate(principal, {
    bankId: input.bank_id,
    name: input.name,
    template: {
      ref: template.ref,
      revision: template.row.sourceRevision,
      manifest: template.row.manifest as BankTemplateManifest,
    },
    dryRun,
  });
  return { bank_id: input.bank_id, template: input.template, bank_created: bankCreated, import_result: result, changes };
}

/** Admins see every bank; others the banks they own (none in Hindsight, which records no owners). Sorted by id. */
export async function listBanks(app: AppContext, principal: Principal) {
  return { banks: await bankStore(app).list(principal) };
}

/** One bank with config, mental models and directives; 404 unless the caller is admin or owner. */
export async function getBank(app: AppContext, principal: Principal, bankId: string): Promise<z.input<typeof BankDetail>> {
  const bank = await bankStore(app).read(principal, bankId);
  if (!bank) throw invisible(bankId);
  // Policies live in our database in both modes.
  const [policy] = await app.db.select({ bankId: bankPolicies.bankId }).from(bankPolicies).where(eq(bankPolicies.bankId, bankId)).limit(1);
  return { ...bank, has_policy: policy !== undefined };
}

/**
 * Deletes a bank with its mental models, directives and history; its policy document stays (it
 * is managed on its own, and may even precede a bank). 404 unless the caller is admin or owner,
 * as for reading it; in the remote store, admins only (Hindsight records no owners).
 */
export async function deleteBank(app: AppContext, principal: Principal, bankId: string): Promise<void> {
  if (!(await bankStore(app).remove(principal, bankId))) throw invisible(bankId);
}

/** The bank's real imports, newest first (CONTRACT §14); visible as the bank is. */
export async function bankHistory(app: AppContext, principal: Principal, bankId: string): Promise<z.input<typeof BankHistory>> {
  if (!(await bankStore(app).isVisible(principal, bankId))) throw invisible(bankId);
  return { entries: await importHistory(app.db, bankId) };
}

/**
 * The bank as a template manifest (CONTRACT §14): imported into a new bank it reproduces this
 * one's config, mental models and directives. Every section is present, even empty, so the
 * manifest says "exactly these" rather than "leave alone".
 */
/**
 * The config as a manifest may state it. Templates merge field by field, so a bank can hold
 * `retain_custom_instructions` from one template after a later one chose another extraction
 * mode; there the instructions have no effect, and no manifest may state them (the bank-template
 * schema), so the export leaves them out and stays importable.
 */
function exportableConfig(config: Record<string, unknown>): Record<string, unknown> {
  if (config.retain_custom_instructions == null || config.retain_extraction_mode === "custom") return config;
  const { retain_custom_instructions: _ineffective, ...rest } = config;
  return rest;
}

export async function exportBank(app: AppContext, principal: Principal, bankId: string): Promise<BankExport> {
  const bank = await bankStore(app).read(principal, bankId);
  if (!bank) throw invisible(bankId);
  return {
    version: MANIFEST_VERSION,
    bank: exportableConfig(bank.config),
    mental_models: bank.mental_models as BankExport["mental_models"],
    directives: bank.directives as BankExport["directives"],
  };
}
