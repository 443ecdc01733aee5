import { defineEndpoint } from "@/lib/http/endpoint";
import { BankTemplateManifest } from "@/lib/templates/manifest";
import { BankDetail, BankHistory, BankList, bankParams, CreateBankQuery, CreateBankRequest, CreateBankResult } from "./schemas";

const tag = "Banks";

export const bankEndpoints = {
  create: defineEndpoint({
    method: "POST", path: "/ext/svc/banks", tag, access: "principal", status: 201,
    summary: "Create a bank from a template, or apply a template to an existing bank (201 created, 200 updated or dry run)",
    query: CreateBankQuery, body: CreateBankRequest, response: CreateBankResult, errors: [403, 404, 502, 504],
    audit: { action: "bank.import", target: "/ext/svc/banks/{bank_id}", unlessQuery: "dry_run" },
  }),
  list: defineEndpoint({
    method: "GET", path: "/ext/svc/banks", tag, access: "principal", status: 200,
    summary: "List banks: all for admins, the caller's own for others", response: BankList, errors: [502, 504],
  }),
  get: defineEndpoint({
    method: "GET", path: "/ext/svc/banks/{bank_id}", tag, access: "principal", status: 200,
    summary: "Read a bank with its config, mental models, directives, owner and provenance",
    params: bankParams, response: BankDetail, errors: [404, 502, 504],
  }),
  history: defineEndpoint({
    method: "GET", path: "/ext/svc/banks/{bank_id}/history", tag, access: "principal", status: 200,
    summary: "The templates applied to a bank, newest first: one entry per real import (visible as the bank is)",
    params: bankParams, response: BankHistory, errors: [404, 502, 504],
  }),
  export: defineEndpoint({
    method: "GET", path: "/ext/svc/banks/{bank_id}/export", tag, access: "principal", status: 200,
    summary: "The bank as a template manifest that, imported into a new bank, reproduces its config, mental models and directives",
    params: bankParams, response: BankTemplateManifest, errors: [404, 502, 504],
  }),
  remove: defineEndpoint({
    method: "DELETE", path: "/ext/svc/banks/{bank_id}", tag, access: "principal", status: 204,
    summary: "Delete a bank with its mental models and directives (its policy document stays)",
    params: bankParams, errors: [404, 502, 504], audit: { action: "bank.delete" },
  }),
};
