import "server-only";
import type { z } from "zod";
import type {
  BankDetail,
  BankHistory,
  BankListQuery,
  CreateBankRequest,
  PatchBankRequest,
  PutDirectiveRequest,
  PutMentalModelRequest,
  RestoreBankRequest,
} from "@/lib/contracts/banks/schemas";
import { conflict, invalidField, notFound } from "@/lib/contracts/errors";
import { type BankExport, type BankTemplateManifest, MANIFEST_VERSION } from "@/lib/contracts/templates/manifest";
import type { MergeResolutionEntry } from "@/lib/contracts/templates/merge";
import type { ServiceContext } from "@/lib/services/context";
import { checkPrecondition } from "@/lib/services/preconditions";
import { currentVersion } from "@/lib/services/templates/version-log";
import type { AppliedTemplate, BankEdit, BankRecords, BankStore, StoredBankDetail } from "./bank-store";
import { presentBankDetail } from "./detail";
import { editAction, editEntry } from "./edits";
import {
  bankHistoryEntries,
  contentHistoryUpTo,
  deleteBankRecords,
  holdPolicyLock,
  recordEdit,
  recordImport,
  recordRestore,
} from "./history";
import type { HindsightConfig } from "./remote";
import { remoteBankStore } from "./remote-store";
import { replayEdits } from "./restore";
import { embeddedBankStore } from "./store";
import { resolveTemplateRef } from "./template-ref";

/** The bank as GET /banks/{bank_id} answers it, for an audit entry; null stays null. */
const presented = async (tx: ServiceContext, bank: StoredBankDetail | null) => bank && presentBankDetail(tx.db, bank);

/**
 * What every real write to a bank records beside it, whichever store holds it (the stores run it
 * where their write commits): an import's history entry (the template as applied, the caller,
 * the result, the content it left) and `bank.import` entry; an edit's history entry (what it
 * touched, before and after) and its entry (`bank.patch`, `bank.mental_model.put`, …); a restore's
 * history entry (the entry restored, the content it left) and `bank.restore` entry; a deletion's
 * history and policy going with the bank (CONTRACT §19) and `bank.delete` entry. Audit entries hold
 * the bank as GET /banks/{bank_id} answers it.
 */
const bankRecords: BankRecords = {
  importHistory: (tx, { request, result, at, content, written }) =>
    recordImport(tx.db, { bankId: request.bankId, template: request.template, actor: tx.actor.id, result, at, content, written }),
  importAudit: async (tx, { bankId, before, after }) => {
    const target = { type: "bank", id: bankId } as const;
    await tx.audit.record({ action: "bank.import", target, before: await presented(tx, before), after: await presented(tx, after) });
  },
  edit: async (tx, { bankId, edit, before, after }) => {
    await recordEdit(tx.db, { bankId, actor: tx.actor.id, ...editEntry(edit, before, after), at: new Date() });
    const answer = await presentBankDetail(tx.db, after);
    await tx.audit.record({
      action: editAction(edit),
      target: { type: "bank", id: bankId },
      before: await presented(tx, before),
      after: answer,
    });
    return answer;
  },
  restore: async (tx, { bankId, restoredFrom, content, before, after }) => {
    await recordRestore(tx.db, { bankId, actor: tx.actor.id, restoredFrom, content, at: new Date() });
    const target = { type: "bank", id: bankId } as const;
    await tx.audit.record({ action: "bank.restore", target, before: await presented(tx, before), after: await presented(tx, after) });
  },
  precondition: async (ctx, read) => {
    if (ctx.precondition && !ctx.precondition.done) checkPrecondition(ctx, await presented(ctx, await read()));
  },
  removal: async (tx, { bankId, before }) => {
    await holdPolicyLock(tx.db, bankId);
    // Presented under the lock, before the records go: its has_policy says whether a policy went along.
    const removed = await presented(tx, before);
    await deleteBankRecords(tx.db, bankId);
    await tx.audit.record({ action: "bank.delete", target: { type: "bank", id: bankId }, before: removed, after: null });
  },
};

/** The embedded store holds nothing of its own: one serves the process. */
const embeddedStore = embeddedBankStore(bankRecords);
/** The remote store of each Hindsight configuration (a process has one; tests swap theirs). */
const remoteStores = new WeakMap<HindsightConfig, BankStore>();

/**
 * The store of this configuration, the one place the two modes part: Hindsight when
 * HINDSIGHT_API_URL is set, else the embedded one. Chosen once per configuration, so every verb
 * of a context works with the same store (and Hindsight client).
 */
export function bankStore(ctx: ServiceContext): BankStore {
  const { hindsight } = ctx.app.config;
  if (!hindsight) return embeddedStore;
  let store = remoteStores.get(hindsight);
  if (!store) {
    store = remoteBankStore(hindsight, bankRecords);
    remoteStores.set(hindsight, store);
  }
  return store;
}

const invisible = (bankId: string) => notFound(`No bank ${bankId} is visible to you.`);

/** The bank a read or delete names. */
interface BankInput {
  bankId: string;
}

/** A template resolved by its ref, as an import applies it: its current content and version. */
export async function appliedTemplate(ctx: ServiceContext, ref: string): Promise<AppliedTemplate> {
  const template = await resolveTemplateRef(ctx, { ref });
  return {
    ref: template.ref,
    rowId: template.row.rowId,
    revision: template.row.sourceRevision,
    // Read only when the template is applied: listing banks by template needs just its row.
    version: await currentVersion(ctx.db, template.row.rowId),
    locallyModified: template.row.locallyModified,
    manifest: template.row.manifest as BankTemplateManifest,
  };
}

/**
 * What an apply asks of a merge (CONTRACT §21): with `merge`, keep the bank's local edits, its
 * conflicts resolved by `resolutions`; resolutions without merge are a 422.
 */
export function mergeRequest(merge: boolean, resolutions: readonly MergeResolutionEntry[] | undefined) {
  if (resolutions && !merge) throw invalidField("resolutions", "is only allowed with merge");
  return merge ? { resolutions: resolutions ?? [] } : undefined;
}

/** Applies a template to a new or existing bank (or computes what it would do, on a dry run, which records nothing). */
export async function createBankFromTemplate(
  ctx: ServiceContext,
  { body: input, dryRun, merge = false }: { body: z.output<typeof CreateBankRequest>; dryRun: boolean; merge?: boolean },
) {
  const { bankCreated, result, changes } = await bankStore(ctx).importTemplate(ctx, {
    bankId: input.bank_id,
    name: input.name,
    template: await appliedTemplate(ctx, input.template),
    dryRun,
    merge: mergeRequest(merge, input.resolutions),
  });
  return { bank_id: input.bank_id, template: input.template, bank_created: bankCreated, import_result: result, changes };
}

/**
 * Admins see every bank; others the banks they own (none in Hindsight, which records no owners). Sorted by id.
 * With `template`, the banks last applied from that template (CONTRACT §16), its ref resolved as POST /banks
 * resolves it. A template that is gone (or was never there) answers 404, as POST /banks does, rather than an
 * empty list: no row is left to match, and an empty list would pass a typo off as "no banks yet".
 */
export async function listBanks(ctx: ServiceContext, { query }: { query: z.output<typeof BankListQuery> }) {
  const templateRow = query.template === undefined ? undefined : (await resolveTemplateRef(ctx, { ref: query.template })).row.rowId;
  return { banks: await bankStore(ctx).list(ctx, { templateRow }) };
}

/** One bank with config, mental models and directives; 404 unless the caller is admin or owner. */
export async function getBank(ctx: ServiceContext, { bankId }: BankInput): Promise<z.input<typeof BankDetail>> {
  const bank = await bankStore(ctx).read(ctx, bankId);
  if (!bank) throw invisible(bankId);
  return presentBankDetail(ctx.db, bank);
}

/**
 * Deletes a bank with its mental models, directives, history and policy (CONTRACT §19; the
 * policy's last document stays in the audit). 404 unless the caller is admin or owner, as for
 * reading it; in the remote store, admins only (Hindsight records no owners).
 */
export async function deleteBank(ctx: ServiceContext, { bankId }: BankInput): Promise<void> {
  if (!(await bankStore(ctx).remove(ctx, bankId))) throw invisible(bankId);
}

/**
 * PATCH /banks/{bank_id} (CONTRACT §21): a new name, config fields merged into the bank's own as an
 * import merges them, a field set to null dropped (the server's default applies again).
 */
export async function patchBank(
  ctx: ServiceContext,
  { bankId, body }: BankInput & { body: z.output<typeof PatchBankRequest> },
): Promise<z.input<typeof BankDetail>> {
  return editBank(ctx, bankId, { kind: "settings", ...body });
}

/** A mental model or directive a PUT or DELETE names: its key from the path, and for a PUT the rest of it from the body. */
interface ItemInput<Body> extends BankInput {
  key: string;
  /** The entry without its key; absent: remove it. */
  body?: Body;
}

/** PUT or DELETE /banks/{bank_id}/mental-models/{id} (CONTRACT §21): the mental model put whole (created or replaced), or removed. */
export async function editMentalModel(
  ctx: ServiceContext,
  { bankId, key, body }: ItemInput<z.output<typeof PutMentalModelRequest>>,
): Promise<z.input<typeof BankDetail>> {
  return editBank(ctx, bankId, { kind: "mental_model", id: key, entry: body ? { id: key, ...body } : null });
}

/** PUT or DELETE /banks/{bank_id}/directives/{name} (CONTRACT §21): the directive put whole (created or replaced), or removed. */
export async function editDirective(
  ctx: ServiceContext,
  { bankId, key, body }: ItemInput<z.output<typeof PutDirectiveRequest>>,
): Promise<z.input<typeof BankDetail>> {
  return editBank(ctx, bankId, { kind: "directive", name: key, entry: body ? { name: key, ...body } : null });
}

/** Every edit goes through the store, which checks who may write the bank and runs the edit's records. */
const editBank = (ctx: ServiceContext, bankId: string, edit: BankEdit) => bankStore(ctx).edit(ctx, bankId, edit);

/**
 * POST /banks/{bank_id}/restore (CONTRACT §21): the bank's content put back as it was right after an
 * import, edit or restore entry of its history: the content the newest import or restore at or before
 * it kept, with the edits since replayed on it. 404 for an id that is no such entry of this bank (a
 * policy entry has its own restore); 409 `restore-unavailable` when that import kept no content
 * (recorded before contents were kept). A dry run answers the changes and writes nothing.
 */
export async function restoreBank(
  ctx: ServiceContext,
  { bankId, body, dryRun }: BankInput & { body: z.output<typeof RestoreBankRequest>; dryRun: boolean },
) {
  const target = async (tx: ServiceContext) => {
    const history = await contentHistoryUpTo(tx.db, bankId, body.entry);
    if (!history) throw notFound(`Bank ${bankId} has no import, edit or restore entry ${body.entry} in its history.`);
    if (!history.content) {
      throw conflict(
        `Bank ${bankId}'s history does not keep its content as it was right after entry ${body.entry} (it was recorded before contents were kept); entries from its next apply on can be restored.`,
        undefined,
        "restore-unavailable",
      );
    }
    return replayEdits(history.content, history.edits);
  };
  const changes = await bankStore(ctx).restore(ctx, bankId, { restoredFrom: body.entry, target, dryRun });
  return { bank_id: bankId, restored_from: body.entry, dry_run: dryRun, changes };
}

/** The bank's real imports, newest first (CONTRACT §14); visible as the bank is. */
export async function bankHistory(ctx: ServiceContext, { bankId }: BankInput): Promise<z.input<typeof BankHistory>> {
  if (!(await bankStore(ctx).isVisible(ctx, bankId))) throw invisible(bankId);
  return { entries: await bankHistoryEntries(ctx.db, bankId) };
}

/**
 * The bank as a template manifest (CONTRACT §14): imported into a new bank it reproduces this
 * one's config, mental models and directives. Every section is present, even empty, so the
 * manifest says "exactly these" rather than "leave alone"; only a config Hindsight would not show
 * is left out (CONTRACT §19).
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

export async function exportBank(ctx: ServiceContext, { bankId }: BankInput): Promise<BankExport> {
  const bank = await bankStore(ctx).read(ctx, bankId);
  if (!bank) throw invisible(bankId);
  return {
    version: MANIFEST_VERSION,
    ...(bank.config_unreadable ? {} : { bank: exportableConfig(bank.config) }),
    mental_models: bank.mental_models as BankExport["mental_models"],
    directives: bank.directives as BankExport["directives"],
  };
}
