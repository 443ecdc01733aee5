import { defineEndpoint } from "@/lib/contracts/endpoint";
import { BankExport } from "@/lib/contracts/templates/manifest";
import { bankRoutes } from "./routes";
import { BankDetail, BankHistory, BankList, bankParams, CreateBankQuery, CreateBankRequest, CreateBankResult } from "./schemas";

const tag = "Banks";

export const bankEndpoints = {
  create: defineEndpoint({
    ...bankRoutes.create,
    tag,
    access: "principal",
    status: 200,
    summary: "Create a bank from a template, or apply a template to an existing bank (200 either way; bank_created says which)",
    query: CreateBankQuery,
    body: CreateBankRequest,
    response: CreateBankResult,
    errors: [403, 404, 502, 504],
    audit: { action: "bank.import", target: bankRoutes.get.path, unlessQuery: "dry_run" },
  }),
  list: defineEndpoint({
    ...bankRoutes.list,
    tag,
    access: "principal",
    status: 200,
    summary: "List banks: all for admins, the caller's own for others",
    response: BankList,
    errors: [502, 504],
  }),
  get: defineEndpoint({
    ...bankRoutes.get,
    tag,
    access: "principal",
    status: 200,
    summary: "Read a bank with its config, mental models, directives, owner and provenance",
    params: bankParams,
    response: BankDetail,
    errors: [404, 502, 504],
  }),
  history: defineEndpoint({
    ...bankRoutes.history,
    tag,
    access: "principal",
    status: 200,
    summary: "The templates applied to a bank, newest first: one entry per real import (visible as the bank is)",
    params: bankParams,
    response: BankHistory,
    errors: [404, 502, 504],
  }),
  export: defineEndpoint({
    ...bankRoutes.export,
    tag,
    access: "principal",
    status: 200,
    summary: "The bank as a template manifest that, imported into a new bank, reproduces its config, mental models and directives",
    params: bankParams,
    response: BankExport,
    errors: [404, 502, 504],
  }),
  remove: defineEndpoint({
    ...bankRoutes.remove,
    tag,
    access: "principal",
    status: 204,
    summary: "Delete a bank with its mental models and directives (its policy document stays)",
    params: bankParams,
    errors: [404, 502, 504],
    audit: { action: "bank.delete" },
  }),
};
