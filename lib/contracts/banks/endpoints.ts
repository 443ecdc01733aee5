import type { z } from "zod";
import { defineEndpoint } from "@/lib/contracts/endpoint";
import { BankExport } from "@/lib/contracts/templates/manifest";
import { bankRoutes } from "./routes";
import {
  BankDetail,
  BankHistory,
  BankList,
  BankListQuery,
  bankParams,
  CreateBankQuery,
  CreateBankRequest,
  CreateBankResult,
  RolloutRequest,
  RolloutResult,
} from "./schemas";

const tag = "Banks";

/** How many banks a rollout wrote: the audit entries it must have recorded. */
const countApplied = (answer: unknown) => (answer as z.output<typeof RolloutResult>).results.filter((result) => result.applied).length;

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
    errors: [403, 404, 502, 504],
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
    query: CreateBankQuery,
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
};
