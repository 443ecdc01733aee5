import type { z } from "zod";
import type { EndpointAuditAction } from "@/lib/contracts/audit-actions";
import type { BankEdit as BankEditEntry } from "@/lib/contracts/banks/schemas";
import { conflict, notFound } from "@/lib/contracts/errors";
import { sameJson } from "@/lib/shared/same-json";
import type { BankEdit, StoredBankDetail } from "./bank-store";
import type { BankContents, StoredShape } from "./changes";

/*
 * Edits of a bank in place (CONTRACT §21), the part both stores share: what an edit asks, whether the
 * bank allows it, what it leaves of the config, what its history entry holds, and whether a bank
 * differs from what its last apply left (`locally_modified`). Pure: a store reads and writes, these decide.
 */

type Entry = Record<string, unknown>;

/** The audit action of an edit, as its endpoint declares it. */
export function editAction(edit: BankEdit): EndpointAuditAction {
  if (edit.kind === "settings") return "bank.patch";
  const removal = edit.entry === null;
  if (edit.kind === "mental_model") return removal ? "bank.mental_model.delete" : "bank.mental_model.put";
  return removal ? "bank.directive.delete" : "bank.directive.put";
}

const LISTS = {
  mental_model: { list: "mental_models", key: "id", what: "mental model" },
  directive: { list: "directives", key: "name", what: "directive" },
} as const;

/** An edit of one mental model or directive. */
type ItemEdit = Exclude<BankEdit, { kind: "settings" }>;

/** The id of the mental model, or the name of the directive, an item edit names. */
export const itemKey = (edit: ItemEdit) => (edit.kind === "mental_model" ? edit.id : edit.name);

/** The bank's mental model or directive that an item edit names; undefined when it has none. */
export function itemOf(bank: Pick<StoredBankDetail, "mental_models" | "directives">, edit: ItemEdit): Entry | undefined {
  const { list, key } = LISTS[edit.kind];
  return (bank[list] as Entry[]).find((entry) => entry[key] === itemKey(edit));
}

/**
 * Refuses an edit the bank does not allow, before anything is written: removing a mental model or
 * directive it does not have (404), setting config that its store would not show (409: a Hindsight
 * bank whose `/config` endpoints answer 404, CONTRACT §19).
 */
export function assertEditable(bankId: string, bank: StoredBankDetail, edit: BankEdit): void {
  if (edit.kind === "settings") {
    if (edit.config !== undefined && Object.keys(edit.config).length > 0 && bank.config_unreadable) {
      throw conflict(
        `Hindsight does not show or change the config of bank ${bankId} (its bank-config API is turned off), so no config field can be set here; the name can.`,
      );
    }
    return;
  }
  if (edit.entry === null && itemOf(bank, edit) === undefined) {
    const { what } = LISTS[edit.kind];
    throw notFound(`Bank ${bankId} has no ${what} ${itemKey(edit)}.`);
  }
}

/** Config fields a PATCH sets (its non-null ones) and drops (its null ones). */
export function configChange(config: Entry): { set: Entry; dropped: string[] } {
  const entries = Object.entries(config);
  return {
    set: Object.fromEntries(entries.filter(([, value]) => value !== null)),
    dropped: entries.filter(([, value]) => value === null).map(([field]) => field),
  };
}

/** The bank's own config after a PATCH: its fields merged in as an import merges them, the null ones dropped. */
export function patchedConfig(current: Entry, config: Entry): Entry {
  const { set, dropped } = configChange(config);
  const merged: Entry = { ...current, ...set };
  for (const field of dropped) delete merged[field];
  return merged;
}

type EditState = z.input<typeof BankEditEntry>["before"];

/** What an edit touched of `bank`, as its history entry holds it (BankEditState). */
function touched(bank: StoredBankDetail, edit: BankEdit): EditState {
  if (edit.kind === "settings") {
    const config = bank.config as Entry;
    return {
      ...(edit.name !== undefined ? { name: bank.name } : {}),
      ...(edit.config !== undefined
        ? {
            config: Object.fromEntries(
              Object.keys(edit.config).map((field) => [field, Object.hasOwn(config, field) ? config[field] : null]),
            ),
          }
        : {}),
    };
  }
  return { [LISTS[edit.kind].list]: { [itemKey(edit)]: itemOf(bank, edit) ?? null } };
}

/** The history entry's before and after of an edit: what it touched, in the bank read before it and after it. */
export const editEntry = (edit: BankEdit, before: StoredBankDetail, after: StoredBankDetail) => ({
  before: touched(before, edit),
  after: touched(after, edit),
});

/** What a store reports a bank to hold: what its last import left is kept in this shape (bank_imports.content). */
export const contentsOf = (bank: Omit<StoredBankDetail, "locally_modified">): BankContents => ({
  config: bank.config_unreadable ? null : (bank.config as Entry),
  mentalModels: bank.mental_models as Entry[],
  directives: bank.directives as Entry[],
});

/** Entries by their key, each in the store's shape. */
const byKey = (entries: Entry[], key: "id" | "name", shape: (entry: Entry) => Entry) =>
  new Map(entries.map((entry) => [String(entry[key]), shape(entry)]));

function sameEntries(a: Entry[], b: Entry[], key: "id" | "name", shape: (entry: Entry) => Entry): boolean {
  const [left, right] = [byKey(a, key, shape), byKey(b, key, shape)];
  return left.size === right.size && [...left].every(([k, entry]) => right.has(k) && sameJson(entry, right.get(k)));
}

/** Config overrides alike, an absent field counting as null (as `changes` counts it). */
function sameConfig(a: Entry, b: Entry): boolean {
  const fields = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...fields].every((field) => sameJson(a[field] ?? null, b[field] ?? null));
}

/**
 * CONTRACT §21 `locally_modified`: whether the bank's content differs from what its last import left
 * (`applied`; null when unknown: never applied through us, or applied before it was kept, which reads
 * as not modified). Entries compare by key, in the store's shape (the order of a bank's entries is no
 * content of theirs); a config either side could not read is left out.
 */
export function locallyModified(bank: BankContents, applied: BankContents | null, shape: StoredShape): boolean {
  if (applied === null) return false;
  if (bank.config !== null && applied.config !== null && !sameConfig(bank.config, applied.config)) return true;
  return (
    !sameEntries(bank.mentalModels, applied.mentalModels, "id", shape.mentalModel) ||
    !sameEntries(bank.directives, applied.directives, "name", shape.directive)
  );
}
