import type { z } from "zod";
import type { Database } from "@/db/client";
import type { BankSummary, ImportResult, RestoreChanges } from "@/lib/contracts/banks/schemas";
import { badGateway, forbidden, notFound } from "@/lib/contracts/errors";
import { BankTemplateConfig } from "@/lib/contracts/templates/manifest";
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
import { type BankContents, EMPTY_BANK, importChanges } from "./changes";
import { assertEditable, configChange, contentsOf, itemOf, locallyModified, patchedConfig } from "./edits";
import { hindsightShape } from "./hindsight-entries";
import { appliedContents } from "./history";
import { planImport } from "./import-plan";
import { mergeIntoBank } from "./merge";
import { type Provenance, provenanceFromHistory, provenanceOf } from "./provenance";
import { type HindsightBank, type HindsightClient, type HindsightConfig, hindsightClient } from "./remote";
import { restoreChanges } from "./restore";

/*
 * The remote store (CONTRACT §8, §3): banks live in a Hindsight server, which records no owners, so no
 * bank is provably a member's own. Admins see every Hindsight bank; members see none (an empty list, 404
 * for any id), and Hindsight is not even asked on their behalf. Any actor may create a bank there;
 * applying a template to one that exists is for admins. The history of imports stays in our database.
 * A write's records (history and audit entry, `records`) run in a local transaction once Hindsight
 * accepted the write: no local transaction can hold a remote one.
 */
export function remoteBankStore(config: HindsightConfig, records: BankRecords): BankStore {
  const client = hindsightClient(config);
  return {
    importTemplate: (ctx, request) => importIntoHindsight(ctx, client, records, request),
    list: (ctx, filter) => listHindsightBanks(ctx.db, client, ctx.actor, filter),
    read: (ctx, bankId) => readHindsightBank(ctx.db, client, ctx.actor, bankId),
    isVisible: async (ctx, bankId) => ctx.actor.role === "admin" && (await client.bankExists(bankId)),
    remove: async (ctx, bankId) => {
      if (ctx.actor.role !== "admin") return false;
      // The bank before, for the audit entry: one more read of Hindsight per deletion.
      const current = await client.getBank(bankId);
      if (current) await records.precondition(ctx, () => storedBank(ctx.db, bankId, current));
      if (!(await client.deleteBank(bankId))) return false;
      // Hindsight deleted it: its history, its policy and the audit entry go together.
      await withTransaction(ctx, async (tx) => {
        // Read before the history goes: the bank's provenance comes from it.
        await records.removal(tx, { bankId, before: await storedBank(tx.db, bankId, current) });
      });
      return true;
    },
    edit: (ctx, bankId, edit) => editHindsightBank(ctx, client, records, bankId, edit),
    restore: (ctx, bankId, request) => restoreHindsightBank(ctx, client, records, bankId, request),
  };
}

/**
 * Reads the bank's current config, mental models and directives, then lets Hindsight import the manifest,
 * with the changes computed from that read as Hindsight holds entries (its defaults filled in), so
 * re-applying the template a bank holds lists none (as far as Hindsight tells: another writer between
 * our read and its import goes unseen).
 *
 * A dry run is still sent, so Hindsight's validation answers (a 422 is a 502 as for a real import), but
 * its lists are validation-only (every entry "created", config "applied" whenever a bank section is
 * there): the answer is the plan's lists, which are what the real import reports (CONTRACT §15).
 *
 * A given name goes to Hindsight after the import (PATCH /v1/default/banks/{bank_id}), never on a dry
 * run: a failed import then leaves no bank renamed, or created empty by the rename, behind. The import is
 * recorded once both were accepted and the bank was read back (for the audit entry's after); when the
 * rename or that read fails the answer is 502 with nothing recorded, and sending the same request again
 * finishes it (the template then changes nothing, the name is set).
 */
async function importIntoHindsight(
  ctx: ServiceContext,
  client: HindsightClient,
  records: BankRecords,
  request: ImportRequest,
): Promise<ImportOutcome> {
  const { bankId, dryRun } = request;
  const current = await client.getBank(bankId);
  if (current && ctx.actor.role !== "admin") {
    throw forbidden(`Bank ${bankId} already exists in Hindsight, which records no owners; only an admin may apply templates to it.`);
  }
  const before = current ?? EMPTY_BANK;
  // A merge into a bank that exists; one that does not has no edits to keep.
  const merge =
    request.merge && current
      ? mergeIntoBank(
          bankId,
          { template: request.template.manifest, local: current, applied: await appliedContents(ctx.db, bankId), shape: hindsightShape },
          request.merge.resolutions,
        )
      : null;
  const manifest = merge?.manifest ?? request.template.manifest;
  const plan = planImport(manifest, {
    mentalModelIds: new Set(before.mentalModels.map((m) => String(m.id))),
    directiveNames: new Set(before.directives.map((d) => String(d.name))),
  });
  const changes = importChanges(plan, before, hindsightShape);
  // Hindsight cannot take a precondition: checked against what it answered just now (on a dry run too).
  await records.precondition(ctx, () => storedBank(ctx.db, bankId, current));
  const answer = await client.importManifest(bankId, manifest, dryRun);
  if (dryRun) {
    const result: ImportResult = { bank_id: bankId, ...plan.result, operation_ids: [], dry_run: true };
    return { bankCreated: false, result, changes };
  }
  if (request.name !== undefined && request.name !== current?.name) await client.renameBank(bankId, request.name);
  const imported = await client.getBank(bankId);
  // After Hindsight accepted the import: its history entry and the audit entry commit together.
  await withTransaction(ctx, async (tx) => {
    // The bank's provenance comes from its history: before is read before this import joins it.
    const before = await storedBank(tx.db, bankId, current);
    // What the import left, as Hindsight reports it: what the bank's locally_modified compares with.
    const content: BankContents | null = imported && {
      config: imported.config,
      mentalModels: imported.mentalModels,
      directives: imported.directives,
    };
    // After a merge the history keeps what the template alone wrote (the next merge's base) beside what the bank holds.
    await records.importHistory(tx, {
      request,
      result: answer,
      at: new Date(),
      ...(merge ? { content: merge.upstream, written: content } : { content }),
    });
    await records.importAudit(tx, { bankId, before, after: await storedBank(tx.db, bankId, imported) });
  });
  return { bankCreated: !current, result: answer, changes };
}

/** Hindsight's banks with their provenance from our history of imports: one list of Hindsight, one query of ours (per thousand banks). */
async function listHindsightBanks(
  db: Database,
  client: HindsightClient,
  actor: Actor,
  filter: BankFilter = {},
): Promise<z.input<typeof BankSummary>[]> {
  if (actor.role !== "admin") return [];
  const items = await client.listBanks();
  const found = await provenanceFromHistory(
    db,
    items.map((item) => item.bank_id),
  );
  return items
    .map((item) => ({ item, provenance: provenanceOf(found, item.bank_id) }))
    .filter(({ provenance }) => filter.templateRow === undefined || provenance.templateRow === filter.templateRow)
    .map(({ item, provenance }) => presentHindsightSummary(item, provenance))
    .sort((a, b) => (a.bank_id < b.bank_id ? -1 : a.bank_id > b.bank_id ? 1 : 0));
}

async function readHindsightBank(db: Database, client: HindsightClient, actor: Actor, bankId: string): Promise<StoredBankDetail | null> {
  if (actor.role !== "admin") return null;
  return storedBank(db, bankId, await client.getBank(bankId));
}

/** A bank Hindsight described (null: none) with its provenance and what its last import left, as our history holds them now. */
async function storedBank(db: Database, bankId: string, bank: HindsightBank | null): Promise<StoredBankDetail | null> {
  if (!bank) return null;
  const provenance = provenanceOf(await provenanceFromHistory(db, [bankId]), bankId);
  return storedHindsightBank(bankId, bank, provenance, await appliedContents(db, bankId));
}

function storedHindsightBank(bankId: string, bank: HindsightBank, provenance: Provenance, applied: BankContents | null): StoredBankDetail {
  const detail = {
    ...presentHindsightSummary({ bank_id: bankId, ...bank }, provenance),
    config: bank.config ?? {},
    ...(bank.config === null ? { config_unreadable: true as const } : {}),
    mental_models: bank.mentalModels,
    directives: bank.directives,
  };
  return { ...detail, locally_modified: locallyModified(contentsOf(detail), applied, hindsightShape) };
}

/** The config fields a bank template may set: what a PATCH sends Hindsight (its import drops the others too). */
const TEMPLATE_CONFIG_FIELDS = new Set(Object.keys(BankTemplateConfig.shape));

/**
 * Edits a Hindsight bank in place (CONTRACT §21) through its own item endpoints: admins only, as
 * applying a template to an existing bank is (Hindsight records no owners; members are refused
 * without asking it). The bank is read first (for the checks, the precondition and the records) and
 * again once Hindsight took the edit; the records commit after that, as an import's do. A failure
 * on the way is a 502 (or 504) with nothing recorded.
 */
async function editHindsightBank(ctx: ServiceContext, client: HindsightClient, records: BankRecords, bankId: string, edit: BankEdit) {
  if (ctx.actor.role !== "admin") {
    throw forbidden(`Banks in Hindsight record no owners; only an admin may edit bank ${bankId}.`);
  }
  const before = await storedBank(ctx.db, bankId, await client.getBank(bankId));
  if (!before) throw notFound(`No bank ${bankId} is visible to you.`);
  assertEditable(bankId, before, edit);
  // Hindsight cannot take a precondition: checked against what it answered just now.
  await records.precondition(ctx, async () => before);
  if (!(await writeEdit(client, bankId, before, edit))) {
    throw notFound(`Bank ${bankId}, or the entry this edit names, is no longer in Hindsight; nothing was changed.`);
  }
  const edited = await storedBank(ctx.db, bankId, await client.getBank(bankId));
  if (!edited) throw badGateway(`Hindsight no longer lists bank ${bankId} after it took the edit; nothing was recorded.`);
  return withTransaction(ctx, (tx) => records.edit(tx, { bankId, edit, before, after: edited }));
}

/**
 * Puts back a Hindsight bank's content (CONTRACT §21) through its item endpoints, admins only as an edit
 * is: only what differs is written (each mental model and directive put whole or removed; the config
 * reset and the target's overrides set, when any field differs). The bank is read before (the changes,
 * the precondition, the records) and after, and the records commit once Hindsight took it all. A
 * failure on the way is 502/504 (or 404 when the bank went) with nothing recorded; part of the content
 * may then be back, and restoring again finishes it.
 */
async function restoreHindsightBank(
  ctx: ServiceContext,
  client: HindsightClient,
  records: BankRecords,
  bankId: string,
  request: RestoreRequest,
): Promise<RestoreChanges> {
  if (ctx.actor.role !== "admin") {
    throw forbidden(`Banks in Hindsight record no owners; only an admin may restore bank ${bankId}.`);
  }
  const before = await storedBank(ctx.db, bankId, await client.getBank(bankId));
  if (!before) throw notFound(`No bank ${bankId} is visible to you.`);
  const target = await request.target(ctx);
  await records.precondition(ctx, async () => before);
  const changes = restoreChanges(contentsOf(before), target, hindsightShape);
  if (request.dryRun) return changes;
  if (!(await writeRestore(client, bankId, changes, target.config ?? {}))) {
    throw notFound(`Bank ${bankId}, or an entry of it, is no longer in Hindsight; the restore was not finished and nothing was recorded.`);
  }
  const restored = await storedBank(ctx.db, bankId, await client.getBank(bankId));
  if (!restored) throw badGateway(`Hindsight no longer lists bank ${bankId} after the restore; nothing was recorded.`);
  await withTransaction(ctx, (tx) =>
    records.restore(tx, { bankId, restoredFrom: request.restoredFrom, content: contentsOf(restored), before, after: restored }),
  );
  return changes;
}

/** Writes what a restore changes through Hindsight's item endpoints; false when Hindsight answered 404. */
async function writeRestore(client: HindsightClient, bankId: string, changes: RestoreChanges, config: Record<string, unknown>) {
  if (changes.config.length > 0) {
    if (!(await client.resetConfig(bankId))) return false;
    const kept = Object.fromEntries(Object.entries(config).filter(([field]) => TEMPLATE_CONFIG_FIELDS.has(field)));
    if (Object.keys(kept).length > 0 && !(await client.updateConfig(bankId, kept))) return false;
  }
  for (const model of changes.mental_models) {
    const written =
      model.change === "delete"
        ? await client.deleteMentalModel(bankId, model.id)
        : await client.putMentalModel(bankId, model.after!, model.change === "update");
    if (!written) return false;
  }
  for (const directive of changes.directives) {
    const written =
      directive.change === "delete"
        ? await client.deleteDirective(bankId, directive.name)
        : await client.putDirective(bankId, directive.after!);
    if (!written) return false;
  }
  return true;
}

/** Makes the edit through Hindsight's item endpoints; false when Hindsight answered 404 (the bank or its entry went meanwhile). */
async function writeEdit(client: HindsightClient, bankId: string, current: StoredBankDetail, edit: BankEdit): Promise<boolean> {
  switch (edit.kind) {
    case "mental_model":
      return edit.entry === null
        ? client.deleteMentalModel(bankId, edit.id)
        : client.putMentalModel(bankId, edit.entry, itemOf(current, edit) !== undefined);
    case "directive":
      return edit.entry === null ? client.deleteDirective(bankId, edit.name) : client.putDirective(bankId, edit.entry);
    case "settings":
      if (edit.config !== undefined && !(await writeConfig(client, bankId, current.config, edit.config))) return false;
      if (edit.name !== undefined && edit.name !== current.name) await client.renameBank(bankId, edit.name);
      return true;
  }
}

/**
 * A PATCH's config through Hindsight's `/config`. Its PATCH merges fields into the bank's overrides
 * (a null would be stored as a null override, not dropped), and only its DELETE drops overrides, all
 * of them: a field set to null that the bank overrides takes a reset and then the overrides to keep,
 * merged as the PATCH asks (two calls; should the second fail, the answer says so and the bank has
 * the server's defaults). Fields the bank template schema does not name are not sent.
 */
async function writeConfig(client: HindsightClient, bankId: string, overrides: Record<string, unknown>, config: Record<string, unknown>) {
  const known = Object.fromEntries(Object.entries(config).filter(([field]) => TEMPLATE_CONFIG_FIELDS.has(field)));
  const { set, dropped } = configChange(known);
  if (!dropped.some((field) => Object.hasOwn(overrides, field))) {
    return Object.keys(set).length === 0 || client.updateConfig(bankId, set);
  }
  if (!(await client.resetConfig(bankId))) return false;
  const kept = patchedConfig(overrides, known);
  if (Object.keys(kept).length === 0) return true;
  try {
    return await client.updateConfig(bankId, kept);
  } catch (error) {
    throw badGateway(
      `Hindsight reset the config overrides of bank ${bankId} but did not take back the ones to keep (${Object.keys(kept).join(", ")}); the bank now has the server's defaults. ${error instanceof Error ? error.message : ""}`.trim(),
    );
  }
}

interface HindsightSummary {
  bank_id: string;
  name?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
}

function presentHindsightSummary(bank: HindsightSummary, provenance: Provenance): z.input<typeof BankSummary> {
  return {
    bank_id: bank.bank_id,
    name: bank.name ?? bank.bank_id,
    owner: null,
    created_at: hindsightTime(bank.created_at),
    updated_at: hindsightTime(bank.updated_at),
    last_applied: provenance.lastApplied,
    behind: provenance.behind,
    newest_version: provenance.newestVersion,
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
