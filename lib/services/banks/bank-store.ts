import type { z } from "zod";
import type { BankDetail, BankSummary, ImportChanges, ImportResult, RestoreChanges } from "@/lib/contracts/banks/schemas";
import type { BankTemplateManifest } from "@/lib/contracts/templates/manifest";
import type { MergeResolutionEntry } from "@/lib/contracts/templates/merge";
import type { ServiceContext } from "@/lib/services/context";
import type { BankContents } from "./changes";

/** The template as applied: its ref, its row, and what it was then (CONTRACT §16). */
export interface AppliedTemplate {
  ref: string;
  rowId: string;
  revision: string | null;
  version: number;
  locallyModified: boolean;
  manifest: BankTemplateManifest;
}

/** A template applied to a bank (CONTRACT §8): the resolved template and what the caller asked for. */
export interface ImportRequest {
  bankId: string;
  name?: string;
  template: AppliedTemplate;
  dryRun: boolean;
  /** Keep the bank's local edits (CONTRACT §21): merge three ways, with these resolutions of conflicts. */
  merge?: { resolutions: readonly MergeResolutionEntry[] };
}

export interface ImportOutcome {
  bankCreated: boolean;
  result: ImportResult;
  changes: ImportChanges;
}

type Entry = Record<string, unknown>;

/** One edit of a bank in place (CONTRACT §21), as the service asks a store to make it (lib/services/banks/edits.ts decides what it may do). */
export type BankEdit =
  /** PATCH P/banks/{bank_id}: a new name, and config fields to set (null: drop the bank's own value). */
  | { kind: "settings"; name?: string; config?: Entry }
  /** PUT (entry: the whole mental model, id included) or DELETE (null) of one mental model. */
  | { kind: "mental_model"; id: string; entry: Entry | null }
  /** PUT (entry: the whole directive, name included) or DELETE (null) of one directive. */
  | { kind: "directive"; name: string; entry: Entry | null };

/** A restore of a bank's content (CONTRACT §21), as the service asks a store to make it. */
export interface RestoreRequest {
  /** The history entry whose content is put back. */
  restoredFrom: string;
  /**
   * That content, read from the bank's history once the store found the bank and may write it (so an
   * invisible bank is 404 before anything of its history is told); throws 404 or 409 `restore-unavailable`.
   */
  target: (tx: ServiceContext) => Promise<BankContents>;
  dryRun: boolean;
}

/** Which banks a listing keeps (none given: every bank the caller may see). */
export interface BankFilter {
  /** Only banks whose last applied template is this row (templates.row_id; CONTRACT §16 ?template=). */
  templateRow?: string;
}

/** A bank as its store knows it; `has_policy` is added from our database whichever store holds it. */
export type StoredBankDetail = Omit<z.input<typeof BankDetail>, "has_policy">;

/** A bank as GET /banks/{bank_id} answers it. */
type PresentedBank = z.input<typeof BankDetail>;

/**
 * What a real write leaves in our database beside the bank, the same whichever store holds it:
 * the bank's history (CONTRACT §14, §16) and the write's audit entry (§17), with the bank as
 * GET /banks/{bank_id} answers it before and after. The bank service says what they hold
 * (bankRecords in banks.ts); a store only runs them, in the local transaction its write commits
 * in: the embedded store's own, or the remote store's once Hindsight accepted the write.
 */
export interface BankRecords {
  /**
   * A real import's history entry, first, with the bank's content as the import left it (what
   * `locally_modified` compares with; null when unknown); answers its time, the bank's
   * `last_applied.applied_at`. A bank's provenance comes from its history: read the bank's before earlier.
   */
  importHistory(
    tx: ServiceContext,
    entry: {
      request: ImportRequest;
      result: ImportResult;
      at: Date;
      content: BankContents | null;
      /** What the bank held after a merge that kept local edits, when `content` is what the template alone wrote. */
      written?: BankContents | null;
    },
  ): Promise<Date>;
  /** A real import's audit entry, last: the bank before (null: the import created it) and after. */
  importAudit(tx: ServiceContext, bank: { bankId: string; before: StoredBankDetail | null; after: StoredBankDetail | null }): Promise<void>;
  /**
   * An edit's history entry and audit entry (CONTRACT §21), the bank as the store read it before and
   * after the edit; answers the bank after, as GET /banks/{bank_id} answers it (and as the audit entry holds it).
   */
  edit(
    tx: ServiceContext,
    edit: { bankId: string; edit: BankEdit; before: StoredBankDetail; after: StoredBankDetail },
  ): Promise<PresentedBank>;
  /**
   * A restore's history entry, with the content it left (as the store reported it after), and its
   * audit entry (`bank.restore`), the bank as the store read it before and after.
   */
  restore(
    tx: ServiceContext,
    restore: { bankId: string; restoredFrom: string; content: BankContents; before: StoredBankDetail; after: StoredBankDetail },
  ): Promise<void>;
  /** A deletion's records (its history and policy go with the bank) and audit entry, the bank read before both. */
  removal(tx: ServiceContext, bank: { bankId: string; before: StoredBankDetail | null }): Promise<void>;
  /**
   * The call's precondition (If-Match, If-None-Match: *; CONTRACT §19), if it has one, checked
   * against the bank as GET answers it (`read`, called only then; null: none): for a store that
   * writes elsewhere first (Hindsight), before it does.
   */
  precondition(ctx: ServiceContext, read: () => Promise<StoredBankDetail | null>): Promise<void>;
}

/**
 * Where banks live: our database (the embedded store) or a Hindsight server (the remote store,
 * CONTRACT §8). Every bank operation goes through one, so the two differ in one place each;
 * the bank service chooses it once per configuration (bankStore in banks.ts). "Visible" is the
 * rule of GET /banks/{bank_id}: a bank the caller (`ctx.actor`) may not see is answered as
 * missing. A store does the storage alone: each real write runs the service's BankRecords.
 */
export interface BankStore {
  /** Applies a template (creating the bank when missing), or on a dry run computes what it would do. */
  importTemplate(ctx: ServiceContext, request: ImportRequest): Promise<ImportOutcome>;
  /** The banks the caller may see (and the filter keeps), by id; the caller may write each of them. */
  list(ctx: ServiceContext, filter?: BankFilter): Promise<z.input<typeof BankSummary>[]>;
  /** One bank with its contents, or null when the caller may not see it. */
  read(ctx: ServiceContext, bankId: string): Promise<StoredBankDetail | null>;
  /** Whether `read` would find the bank, without reading its contents. */
  isVisible(ctx: ServiceContext, bankId: string): Promise<boolean>;
  /** Deletes the bank with its contents, history and policy; false when the caller may not see it. */
  remove(ctx: ServiceContext, bankId: string): Promise<boolean>;
  /**
   * Edits the bank in place (CONTRACT §21) and runs the edit's records; answers the bank after, as
   * GET answers it. 404 when the bank is missing (or the item a removal names), 403 when the caller
   * may not write it (as for applying a template to it).
   */
  edit(ctx: ServiceContext, bankId: string, edit: BankEdit): Promise<PresentedBank>;
  /**
   * Puts back the bank's content as the request's target gives it (CONTRACT §21) and runs the
   * restore's records; on a dry run only answers what it would change. 404 and 403 as for an edit.
   */
  restore(ctx: ServiceContext, bankId: string, request: RestoreRequest): Promise<RestoreChanges>;
}
