// The typed client for programs: openapi-fetch over the types openapi-typescript generated from
// GET /ext/svc/openapi.json (schema.d.ts). It imports nothing from the server's code, so a
// program can copy this folder as it is; see README.md.
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { components, paths } from "./schema";

export type { components, operations, paths } from "./schema";

/** Every named schema of the API: `Schemas["Template"]`, `Schemas["CreateBankRequest"]`. */
export type Schemas = components["schemas"];

/** An error answer (`application/problem+json`); branch on its `type`. */
export type Problem = Schemas["Problem"];

export type BankTemplatesClient = Client<paths>;

export interface BankTemplatesClientOptions extends Omit<ClientOptions, "baseUrl" | "headers"> {
  /** The server's origin, `https://templates.example.com`; the paths carry `/ext/svc` themselves. */
  baseUrl: string;
  /** An API key of a user or service account (POST /ext/svc/me/api-keys), sent as a bearer token. */
  apiKey: string;
}

/**
 * A client whose calls are checked against the API's paths, parameters, bodies and answers:
 * `client.POST("/ext/svc/banks", { params: { query: { dry_run: true } }, body })` resolves to
 * `{ data }` on success and `{ error }` (a Problem) otherwise, with the `response` beside them.
 */
export function createBankTemplatesClient({ baseUrl, apiKey, ...options }: BankTemplatesClientOptions): BankTemplatesClient {
  return createClient<paths>({ ...options, baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
}
