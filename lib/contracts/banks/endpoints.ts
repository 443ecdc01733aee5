import type { z } from "zod";
import type { EndpointAuditAction } from "@/lib/contracts/audit-actions";
import { defineEndpoint, type HttpMethod } from "@/lib/contracts/endpoint";
import { BankExport } from "@/lib/contracts/templates/manifest";
import { bankRoutes } from "./routes";
import {
  BankDetail,
  BankHistory,
  BankList,
  BankListQuery,
  BankRestoreResult,
  bankParams,
  CreateBankQuery,
  CreateBankRequest,
  CreateBankResult,
  directiveParams,
  mentalModelParams,
  PatchBankRequest,
  PutDirectiveRequest,
  PutMentalModelRequest,
  RestoreBankQuery,
  RestoreBankRequest,
  RolloutQuery,
  RolloutRequest,
  RolloutResult,
} from "./schemas";

const tag = "Banks";

type AnyObject = z.ZodObject<z.ZodRawShape>;

/** How many banks a rollout wrote: the audit entries it must have recorded. */
const countApplied = (answer: unknown) => (answer as z.output<typeof RolloutResult>).results.filter((result) => result.applied).length;

/**
 * An edit of a bank in place (CONTRACT §21): it answers the bank as GET does, is audited on the bank
 * (before and after as GET answers it) whatever item it touched, and takes If-Match; who may apply a
 * template to the bank may edit it (403 otherwise, 404 for a bank that does not exist).
 */
function bankEdit<P extends AnyObject, B extends z.ZodType | undefined = undefined>(edit: {
  method: HttpMethod;
  path: string;
  summary: string;
  params: P;
  body?: B;
  errors?: number[];
  action: EndpointAuditAction;
}) {
  const { action, errors = [], ...rest } = edit;
  return defineEndpoint({
    ...rest,
    tag,
    access: "authenticated",
    status: 200,
    response: BankDetail,
    errors: [403, 404, ...errors, 502, 504],
    audit: { action, target: bankRoutes.get.path },
    conditional: "if-match",
  });
}

export const bankEndpoints = {
  create: defineEndpoint({
    ...bankRoutes.create,
    tag,
    access: "authenticated",
    status: 200,
    summary: "Create a bank from a template, or apply a template to an existing bank (200 either way; bank_created says which)",
    query: CreateBankQuery,
    body: CreateBankRequest,
    response: CreateBankResult,
    errors: [403, 404, 409, 502, 504],
    audit: { action: "bank.import", target: bankRoutes.get.path, unlessQuery: "dry_run" },
    conditional: "if-match-or-create",
  }),
  list: defineEndpoint({
    ...bankRoutes.list,
    tag,
    access: "authenticated",
    status: 200,
    summary: "List banks: all for admins, the caller's own for others; ?template= keeps those last applied from that template",
    query: BankListQuery,
    response: BankList,
    errors: [404, 502, 504],
  }),
  rollout: defineEndpoint({
    ...bankRoutes.rollout,
    tag,
    access: "authenticated",
    status: 200,
    summary:
      "Apply a template's current content to several banks, each as POST /banks would (its own changes, history and audit entry); one bank's failure is its own problem",
    query: RolloutQuery,
    body: RolloutRequest,
    response: RolloutResult,
    errors: [404, 502, 504],
    // One bank.import entry per bank applied, as POST /banks records it; a dry run records none.
    audit: { action: "bank.import", target: bankRoutes.get.path, unlessQuery: "dry_run", perTarget: countApplied },
  }),
  get: defineEndpoint({
    ...bankRoutes.get,
    tag,
    access: "authenticated",
    status: 200,
    summary: "Read a bank with its config, mental models, directives, owner and provenance",
    params: bankParams,
    response: BankDetail,
    errors: [404, 502, 504],
  }),
  history: defineEndpoint({
    ...bankRoutes.history,
    tag,
    access: "authenticated",
    status: 200,
    summary: "The templates applied to a bank, newest first: one entry per real import (visible as the bank is)",
    params: bankParams,
    response: BankHistory,
    errors: [404, 502, 504],
  }),
  export: defineEndpoint({
    ...bankRoutes.export,
    tag,
    access: "authenticated",
    status: 200,
    summary: "The bank as a template manifest that, imported into a new bank, reproduces its config, mental models and directives",
    params: bankParams,
    response: BankExport,
    errors: [404, 502, 504],
  }),
  remove: defineEndpoint({
    ...bankRoutes.remove,
    tag,
    access: "authenticated",
    status: 204,
    summary: "Delete a bank with its mental models, directives, history and policy",
    params: bankParams,
    errors: [404, 502, 504],
    audit: { action: "bank.delete" },
    conditional: "if-match",
  }),
  restore: defineEndpoint({
    ...bankRoutes.restore,
    tag,
    access: "authenticated",
    status: 200,
    summary:
      "Put back the bank's content (config, mental models, directives) as it was right after an import, edit or restore entry of its history, as one more `restore` entry; dry_run=true answers the changes and writes nothing. 404 for an id that is no such entry of this bank; 409 `restore-unavailable` when the history does not keep that content",
    params: bankParams,
    query: RestoreBankQuery,
    body: RestoreBankRequest,
    response: BankRestoreResult,
    errors: [403, 404, 409, 502, 504],
    audit: { action: "bank.restore", target: bankRoutes.get.path, unlessQuery: "dry_run" },
    conditional: "if-match",
  }),
  // Edits in place (CONTRACT §21).
  patch: bankEdit({
    ...bankRoutes.patch,
    summary:
      "Rename a bank or change its config in place: config fields merge into the bank's as an import's do, and a field set to null returns to the server's default",
    params: bankParams,
    body: PatchBankRequest,
    errors: [409],
    action: "bank.patch",
  }),
  putMentalModel: bankEdit({
    ...bankRoutes.putMentalModel,
    summary: "Create a mental model of a bank, or replace it whole (as an import replaces a matched one); answers the bank",
    params: mentalModelParams,
    body: PutMentalModelRequest,
    action: "bank.mental_model.put",
  }),
  removeMentalModel: bankEdit({
    ...bankRoutes.removeMentalModel,
    summary: "Remove a mental model from a bank (404 when the bank has none of that id); answers the bank",
    params: mentalModelParams,
    action: "bank.mental_model.delete",
  }),
  putDirective: bankEdit({
    ...bankRoutes.putDirective,
    summary: "Create a directive of a bank, or replace it whole (as an import replaces a matched one); answers the bank",
    params: directiveParams,
    body: PutDirectiveRequest,
    action: "bank.directive.put",
  }),
  removeDirective: bankEdit({
    ...bankRoutes.removeDirective,
    summary: "Remove a directive from a bank (404 when the bank has none of that name); answers the bank",
    params: directiveParams,
    action: "bank.directive.delete",
  }),
};
