import { and, asc, eq } from "drizzle-orm";
import type { z } from "zod";
import { bankPolicies, banks } from "@/db/schema";
import { iso, isoOrNull } from "@/lib/api/fields";
import { forbidden, notFound } from "@/lib/http/errors";
import type { Principal } from "@/lib/identity/principal";
import type { AppContext } from "@/lib/server/app";
import type { BankTemplateManifest } from "@/lib/templates/manifest";
import type { BankDetail, BankSummary, CreateBankRequest, ImportResult } from "./schemas";
import { hindsightClient } from "./remote";
import { importIntoEmbeddedStore, loadBank, type BankRow, type ImportRequest } from "./store";
import { resolveTemplateRef } from "./template-ref";

/** A bank as its store knows it; `has_policy` is added from our database whichever store holds it. */
type StoredBankDetail = Omit<z.input<typeof BankDetail>, "has_policy">;

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

/** Admins see every bank; others the banks they own (none in Hindsight, which records no owners). Sorted by id. */
export async function listBanks(app: AppContext, principal: Principal) {
  const list = app.config.hindsight ? listHindsightBanks : listEmbeddedBanks;
  return { banks: await list(app, principal) };
}

/** One bank with config, mental models and directives; 404 unless the caller is admin or owner. */
export async function getBank(app: AppContext, principal: Principal, bankId: string): Promise<z.input<typeof BankDetail>> {
  const read = app.config.hindsight ? readHindsightBank : readEmbeddedBank;
  const bank = await read(app, principal, bankId);
  if (!bank) throw notFound(`No bank ${bankId} is visible to you.`);
  // Policies live in our database in both modes.
  const [policy] = await app.db.select({ bankId: bankPolicies.bankId }).from(bankPolicies).where(eq(bankPolicies.bankId, bankId)).limit(1);
  return { ...bank, has_policy: policy !== undefined };
}

/**
 * Deletes a bank with its mental models and directives; its policy document stays (it is
 * managed on its own, and may even precede a bank). 404 unless the caller is admin or owner,
 * as for reading it; in the remote store, admins only (Hindsight records no owners).
 */
export async function deleteBank(app: AppContext, principal: Principal, bankId: string): Promise<void> {
  const deleted = app.config.hindsight
    ? principal.role === "admin" && (await hindsightClient(app.config.hindsight).deleteBank(bankId))
    : await deleteEmbeddedBank(app, principal, bankId);
  if (!deleted) throw notFound(`No bank ${bankId} is visible to you.`);
}

async function deleteEmbeddedBank(app: AppContext, principal: Principal, bankId: string): Promise<boolean> {
  const visible = principal.role === "admin" ? eq(banks.id, bankId) : and(eq(banks.id, bankId), eq(banks.owner, principal.userId));
  return (await app.db.delete(banks).where(visible).returning({ id: banks.id })).length > 0;
}

async function listEmbeddedBanks(app: AppContext, principal: Principal) {
  const query = app.db.select().from(banks).orderBy(asc(banks.id));
  const rows = principal.role === "admin" ? await query : await query.where(eq(banks.owner, principal.userId));
  return rows.map(presentSummary);
}

async function readEmbeddedBank(app: AppContext, principal: Principal, bankId: string): Promise<StoredBankDetail | null> {
  const loaded = await loadBank(app.db, bankId);
  if (!loaded || (principal.role !== "admin" && loaded.bank.owner !== principal.userId)) return null;
  return {
    ...presentSummary(loaded.bank),
    config: loaded.bank.config,
    mental_models: loaded.mentalModels,
    directives: loaded.directives,
  };
}

/*
 * The remote store (CONTRACT §8, §3): Hindsight records no owners, so no bank is provably a member's own.
 * Admins see every Hindsight bank; members see none (an empty list, 404 for any id), and Hindsight is not
 * even asked on their behalf.
 */

async function listHindsightBanks(app: AppContext, principal: Principal): Promise<z.input<typeof BankSummary>[]> {
  if (principal.role !== "admin") return [];
  const items = await hindsightClient(app.config.hindsight!).listBanks();
  return items.map(presentHindsightSummary).sort((a, b) => (a.bank_id < b.bank_id ? -1 : a.bank_id > b.bank_id ? 1 : 0));
}

async function readHindsightBank(app: AppContext, principal: Principal, bankId: string): Promise<StoredBankDetail | null> {
  if (principal.role !== "admin") return null;
  const bank = await hindsightClient(app.config.hindsight!).getBank(bankId);
  if (!bank) return null;
  return {
    ...presentHindsightSummary({ bank_id: bankId, ...bank }),
    config: bank.config,
    mental_models: bank.mentalModels,
    directives: bank.directives,
  };
}

interface HindsightSummary {
  bank_id: string;
  name?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
}

function presentHindsightSummary(bank: HindsightSummary): z.input<typeof BankSummary> {
  return {
    bank_id: bank.bank_id,
    name: bank.name ?? bank.bank_id,
    owner: null,
    created_at: hindsightTime(bank.created_at),
    updated_at: hindsightTime(bank.updated_at),
    last_applied: null,
  };
}

/**
 * Hindsight's timestamps (Python isoformat: microseconds, an offset, or no zone meaning UTC) as ISO ms Z.
 * The reference types them as plain nullable strings, so null when absent or not a readable date-time.
 */
function hindsightTime(text: string | null | undefined): string | null {
  if (!text) return null;
  const zoned = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i.test(text) || !/\d{2}:\d{2}/.test(text) ? text : `${text}Z`;
  const ms = Date.parse(zoned);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
