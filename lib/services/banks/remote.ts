import "server-only";
import { STATUS_CODES } from "node:http";
import { z } from "zod";
import type { ImportResult } from "@/lib/contracts/banks/schemas";
import { badGateway, type DomainError } from "@/lib/contracts/errors";
import { parseUpstreamJson } from "@/lib/contracts/json-hygiene";
import { errorMap, formatPath } from "@/lib/contracts/validation";
import { displayUrl, readCapped, upstreamFailure } from "@/lib/platform/outbound";
import { hindsightRequest, reportedDirective, reportedMentalModel } from "./hindsight-entries";

/*
 * Client of a Hindsight server's bank API (CONTRACT §8, remote store): the calls bank creation, the bank
 * list and the bank detail need. Every failure is an DomainError: 504 when Hindsight is slower than the
 * configured timeout, 502 for anything else (unreachable, non-2xx, a body that is not the documented JSON).
 * Messages name the Hindsight URL and the reason in one sentence, never the API key.
 */

/** A bank as Hindsight describes it: its name and timestamps as sent (either may be null). */
export interface HindsightBank {
  name: string | null;
  created_at: string | null;
  updated_at: string | null;
  /**
   * The bank's own config overrides (BankConfigResponse.overrides), not the resolved config; null
   * when Hindsight would not show them: its `/config` endpoints answer 404 while the bank exists,
   * as when it runs with HINDSIGHT_API_ENABLE_BANK_CONFIG_API=false (CONTRACT §19).
   */
  config: Record<string, unknown> | null;
  /** Each in the shape of a manifest entry (BankTemplateMentalModel), fields Hindsight leaves null omitted. */
  mentalModels: Record<string, unknown>[];
  /** Each in the shape of a manifest entry (BankTemplateDirective), inactive ones included. */
  directives: Record<string, unknown>[];
}

export interface HindsightClient {
  /** Whether a bank with exactly this id exists (GET /v1/default/banks?q=<id>, paging with limit/offset until found or exhausted; compare bank_id exactly). */
  bankExists(bankId: string): Promise<boolean>;
  /** Every bank (GET /v1/default/banks, all pages), each once, in Hindsight's order. */
  listBanks(): Promise<BankListItem[]>;
  /**
   * One bank, or null when Hindsight has none with this id. Existence, name and timestamps come from the
   * bank list (which the reference documents as exhaustive); then GET …/config, …/mental-models and
   * …/directives. A 404 from the lists (the bank was deleted meanwhile) also means null; a 404 from
   * …/config asks the bank list again: a bank still listed has its config unreadable (`config` null),
   * one gone is null.
   */
  getBank(bankId: string): Promise<HindsightBank | null>;
  /** POST /v1/default/banks/{bank_id}/import?dry_run=<bool> with the manifest as JSON body; the answer validated against BankTemplateImportResponse (defaults for the optional arrays/dry_run as the reference gives). */
  importManifest(bankId: string, manifest: Record<string, unknown>, dryRun: boolean): Promise<ImportResult>;
  /** DELETE /v1/default/banks/{bank_id}; false when Hindsight has no such bank (404). */
  deleteBank(bankId: string): Promise<boolean>;
  /** PATCH /v1/default/banks/{bank_id} with `{name}` (CreateBankRequest): the bank's display name. */
  renameBank(bankId: string, name: string): Promise<void>;

  // One bank's items in place (CONTRACT §21), through the item endpoints of Hindsight's API
  // (tests/fixtures/hindsight-bank-items-openapi.json). Each is false when Hindsight answers 404:
  // the bank (or the item) is gone.

  /** PATCH …/config with `{updates}`: the fields merged into the bank's overrides (Hindsight's `config || updates`). */
  updateConfig(bankId: string, updates: Record<string, unknown>): Promise<boolean>;
  /** DELETE …/config: every override of the bank dropped, the server's defaults apply. */
  resetConfig(bankId: string): Promise<boolean>;
  /**
   * The mental model as a manifest entry puts it, whole: PATCH …/mental-models/{id} (UpdateMentalModelRequest)
   * when the bank has it (`exists`), else POST …/mental-models (CreateMentalModelRequest, which starts its
   * content's generation). Fields the entry leaves out are sent as Hindsight's defaults, so a replaced
   * model keeps nothing of its old self, as an import's replacement does.
   */
  putMentalModel(bankId: string, entry: Record<string, unknown>, exists: boolean): Promise<boolean>;
  /** DELETE …/mental-models/{id}. */
  deleteMentalModel(bankId: string, id: string): Promise<boolean>;
  /**
   * The directive as a manifest entry puts it, whole. Hindsight keys directives by an id of its own, so
   * the directive is found by name in the bank's list first: PATCH …/directives/{id} (UpdateDirectiveRequest)
   * when there is one, else POST …/directives (CreateDirectiveRequest); defaults as for mental models.
   */
  putDirective(bankId: string, entry: Record<string, unknown>): Promise<boolean>;
  /** DELETE …/directives/{id} of the directive of that name (found as for putDirective); false when there is none. */
  deleteDirective(bankId: string, name: string): Promise<boolean>;
}

export interface HindsightConfig {
  url: string;
  apiKey: string | null;
  timeoutMs: number;
}

// ---------------------------------------------------------------------------------------------------------
// Answer shapes of the reference (loose: fields Hindsight adds later must not break us).

const strings = z.array(z.string());
const optionalText = z.string().nullable().optional();

const ImportResponse = z.looseObject({
  bank_id: z.string(),
  config_applied: z.boolean(),
  mental_models_created: strings.default([]),
  mental_models_updated: strings.default([]),
  directives_created: strings.default([]),
  directives_updated: strings.default([]),
  operation_ids: strings.default([]),
  dry_run: z.boolean().default(false),
});

const Disposition = z.looseObject({ skepticism: z.int(), literalism: z.int(), empathy: z.int() });

const BankListItem = z.looseObject({
  bank_id: z.string(),
  name: optionalText,
  disposition: Disposition,
  mission: optionalText,
  created_at: optionalText,
  updated_at: optionalText,
  fact_count: z.int().optional(),
  last_document_at: optionalText,
  last_write_at: optionalText,
});

type BankListItem = z.output<typeof BankListItem>;

/** The paging fields every listing of the reference answers with. */
const paging = { total: z.int().min(0), limit: z.int().min(0), offset: z.int().min(0) };

const BankListResponse = z.looseObject({ banks: z.array(BankListItem), ...paging });
const DeleteResponse = z.looseObject({ success: z.boolean(), message: z.string().nullish() });
const BankProfileResponse = z.looseObject({ bank_id: z.string(), name: z.string(), disposition: Disposition, mission: z.string() });

const objectOf = z.record(z.string(), z.unknown());

const BankConfigResponse = z.looseObject({ bank_id: z.string(), config: objectOf, overrides: objectOf });

const MentalModelResponse = z.looseObject({
  id: z.string(),
  bank_id: z.string(),
  name: z.string(),
  source_query: optionalText,
  tags: strings.default([]),
  max_tokens: z.int().nullable().optional(),
  trigger: objectOf.nullable().optional(),
});

const DirectiveResponse = z.looseObject({
  id: z.string(),
  bank_id: z.string(),
  name: z.string(),
  content: z.string(),
  priority: z.int().default(0),
  is_active: z.boolean().default(true),
  tags: strings.default([]),
});

const MentalModelListResponse = z.looseObject({ items: z.array(MentalModelResponse), ...paging });
const DirectiveListResponse = z.looseObject({ items: z.array(DirectiveResponse), ...paging });
const CreateMentalModelResponse = z.looseObject({ operation_id: z.string(), mental_model_id: z.string().nullish() });
/** The item deletions answer a body the reference leaves untyped. */
const AnyResponse = z.unknown();

const LIST_PATH = "/v1/default/banks";

/** Page size of every listing; Hindsight's own default. */
const PAGE_SIZE = 100;
/** A server that keeps answering full pages past this is not paging; stop rather than loop forever. */
const MAX_PAGES = 1000;
/** Largest answer read; a page of banks, models or directives is tens of KiB, so more means a wrong URL. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------------------
// The client

export function hindsightClient(config: HindsightConfig, fetchImpl: typeof fetch = fetch): HindsightClient {
  const send = sender(config, fetchImpl);
  const where = `Hindsight at ${displayBase(config.url)}`;

  /** Pages of GET /v1/default/banks, optionally searched (q is a substring match on id or name). */
  const bankPages = (q?: string) =>
    pages(where, `GET ${LIST_PATH}`, async (page) => {
      const answer = await send({ method: "GET", path: LIST_PATH, query: q === undefined ? page : { q, ...page } }, BankListResponse);
      return { items: answer.banks, total: answer.total };
    });

  async function findBank(bankId: string): Promise<BankListItem | null> {
    for await (const banks of bankPages(bankId)) {
      // Only an exact id counts.
      const hit = banks.find((bank) => bank.bank_id === bankId);
      if (hit) return hit;
    }
    return null;
  }

  /** Every item of a per-bank listing; a 404 throws BankNotFound. */
  async function bankItems<T>(path: string, query: Record<string, string>, schema: z.ZodType<{ items: T[]; total: number }>) {
    const all: T[] = [];
    const listing = pages(where, `GET ${path}`, (page) =>
      send({ method: "GET", path, query: { ...query, ...page }, bankScoped: true }, schema),
    );
    for await (const items of listing) all.push(...items);
    return all;
  }

  /**
   * The bank's config overrides; null when Hindsight answers 404 while the bank is still listed:
   * a Hindsight run with its bank-config API turned off answers every `/config` call so, existing
   * bank or not (CONTRACT §19). A bank no longer listed was deleted meanwhile: BankNotFound.
   */
  async function configOverrides(bankId: string, path: string): Promise<Record<string, unknown> | null> {
    try {
      return (await send({ method: "GET", path: `${path}/config`, bankScoped: true }, BankConfigResponse)).overrides;
    } catch (error) {
      if (!(error instanceof BankNotFound) || (await findBank(bankId)) === null) throw error;
      return null;
    }
  }

  const bankPath = (bankId: string) => `${LIST_PATH}/${encodeURIComponent(bankId)}`;
  /** Every directive of the bank, inactive ones included. */
  const directivesOf = (bankId: string) => bankItems(`${bankPath(bankId)}/directives`, { active_only: "false" }, DirectiveListResponse);

  /** Sends one item call; false when Hindsight answers 404 (the bank or the item is gone). */
  async function found(call: Call, schema: z.ZodType = AnyResponse): Promise<boolean> {
    try {
      await send({ ...call, bankScoped: true }, schema);
      return true;
    } catch (error) {
      if (error instanceof BankNotFound) return false;
      throw error;
    }
  }

  /** The id Hindsight gave the bank's directive of this name; null when it has none, undefined when the bank is gone. */
  async function directiveId(bankId: string, name: string): Promise<string | null | undefined> {
    try {
      return (await directivesOf(bankId)).find((directive) => directive.name === name)?.id ?? null;
    } catch (error) {
      if (error instanceof BankNotFound) return undefined;
      throw error;
    }
  }

  async function readBank(bankId: string, item: BankListItem): Promise<HindsightBank> {
    const path = bankPath(bankId);
    const [config, mentalModels, directives] = await Promise.all([
      configOverrides(bankId, path),
      // "content" leaves out reflect_response, which can be large and is not part of a manifest entry.
      bankItems(`${path}/mental-models`, { detail: "content" }, MentalModelListResponse),
      directivesOf(bankId),
    ]);
    return {
      name: item.name ?? null,
      created_at: item.created_at ?? null,
      updated_at: item.updated_at ?? null,
      config,
      mentalModels: mentalModels.map(reportedMentalModel),
      directives: directives.map(reportedDirective),
    };
  }

  return {
    async bankExists(bankId) {
      return (await findBank(bankId)) !== null;
    },

    async listBanks() {
      // Hindsight orders by last write, so a bank written while we page may show up twice: keep the first.
      const byId = new Map<string, BankListItem>();
      for await (const banks of bankPages()) {
        for (const bank of banks) if (!byId.has(bank.bank_id)) byId.set(bank.bank_id, bank);
      }
      return [...byId.values()];
    },

    async getBank(bankId) {
      const item = await findBank(bankId);
      if (!item) return null;
      try {
        return await readBank(bankId, item);
      } catch (error) {
        if (error instanceof BankNotFound) return null;
        throw error;
      }
    },

    async importManifest(bankId, manifest, dryRun) {
      const path = `${LIST_PATH}/${encodeURIComponent(bankId)}/import`;
      const answer = await send({ method: "POST", path, query: { dry_run: String(dryRun) }, body: manifest }, ImportResponse);
      return {
        bank_id: answer.bank_id,
        config_applied: answer.config_applied,
        mental_models_created: answer.mental_models_created,
        mental_models_updated: answer.mental_models_updated,
        directives_created: answer.directives_created,
        directives_updated: answer.directives_updated,
        operation_ids: answer.operation_ids,
        dry_run: answer.dry_run,
      };
    },

    async deleteBank(bankId) {
      const path = `${LIST_PATH}/${encodeURIComponent(bankId)}`;
      try {
        const answer = await send({ method: "DELETE", path, bankScoped: true }, DeleteResponse);
        if (!answer.success)
          throw badGateway(
            `Hindsight at ${displayBase(config.url)} did not delete bank ${bankId}${answer.message ? `: ${answer.message}` : ""}.`,
          );
        return true;
      } catch (error) {
        if (error instanceof BankNotFound) return false;
        throw error;
      }
    },

    async renameBank(bankId, name) {
      const path = `${LIST_PATH}/${encodeURIComponent(bankId)}`;
      await send({ method: "PATCH", path, body: { name } }, BankProfileResponse);
    },

    updateConfig: (bankId, updates) =>
      found({ method: "PATCH", path: `${bankPath(bankId)}/config`, body: { updates } }, BankConfigResponse),

    resetConfig: (bankId) => found({ method: "DELETE", path: `${bankPath(bankId)}/config` }, BankConfigResponse),

    putMentalModel(bankId, entry, exists) {
      const models = `${bankPath(bankId)}/mental-models`;
      if (!exists)
        return found({ method: "POST", path: models, body: hindsightRequest("createMentalModel", entry) }, CreateMentalModelResponse);
      const path = `${models}/${encodeURIComponent(String(entry.id))}`;
      return found({ method: "PATCH", path, body: hindsightRequest("updateMentalModel", entry) }, MentalModelResponse);
    },

    deleteMentalModel: (bankId, id) => found({ method: "DELETE", path: `${bankPath(bankId)}/mental-models/${encodeURIComponent(id)}` }),

    async putDirective(bankId, entry) {
      const id = await directiveId(bankId, String(entry.name));
      if (id === undefined) return false;
      const directives = `${bankPath(bankId)}/directives`;
      if (id === null)
        return found({ method: "POST", path: directives, body: hindsightRequest("createDirective", entry) }, DirectiveResponse);
      const path = `${directives}/${encodeURIComponent(id)}`;
      return found({ method: "PATCH", path, body: hindsightRequest("updateDirective", entry) }, DirectiveResponse);
    },

    async deleteDirective(bankId, name) {
      const id = await directiveId(bankId, name);
      if (id === undefined || id === null) return false;
      return found({ method: "DELETE", path: `${bankPath(bankId)}/directives/${encodeURIComponent(id)}` });
    },
  };
}

/**
 * Walks a limit/offset listing page by page (every listing of the reference pages this way). Stops when a
 * page comes back empty or the total is reached; the consumer may stop earlier by leaving its loop.
 */
async function* pages<T>(
  where: string,
  what: string,
  load: (page: Record<string, string>) => Promise<{ items: T[]; total: number }>,
): AsyncGenerator<T[]> {
  let offset = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { items, total } = await load({ limit: String(PAGE_SIZE), offset: String(offset) });
    yield items;
    // Advance by what came back, not by PAGE_SIZE, in case the server caps the page.
    offset += items.length;
    if (items.length === 0 || offset >= total) return;
  }
  throw badGateway(`${where} kept answering ${what} with more pages past ${MAX_PAGES} pages.`);
}

// ---------------------------------------------------------------------------------------------------------
// One exchange: request, status, body, shape — all inside the deadline.

interface Call {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** A path under one bank: a 404 then means the bank is gone (BankNotFound), not a failure. */
  bankScoped?: boolean;
}

class DeadlineExceeded extends Error {}

/** Hindsight answered 404 to a per-bank call; the client turns it into null, it never leaves this module. */
class BankNotFound extends Error {}

function sender(config: HindsightConfig, fetchImpl: typeof fetch) {
  const base = config.url.replace(/\/+$/, "");
  const where = `Hindsight at ${displayBase(config.url)}`;
  return async function send<S extends z.ZodType>(call: Call, schema: S): Promise<z.output<S>> {
    const search = new URLSearchParams(call.query ?? {}).toString();
    const url = `${base}${call.path}${search ? `?${search}` : ""}`;
    const init = requestInit(config, call);
    const what = `${call.method} ${call.path}`;
    const missing = call.bankScoped === true;
    try {
      const text = await withDeadline(config.timeoutMs, (signal) =>
        exchange(fetchImpl, url, { ...init, signal }, { what, where, missing }),
      );
      return parseAnswer(text, schema, what, where);
    } catch (error) {
      if (error instanceof BankNotFound) throw error;
      throw toDomainError(error, where, config.timeoutMs);
    }
  };
}

function requestInit(config: HindsightConfig, call: Call): RequestInit {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (config.apiKey !== null) headers.Authorization = `Bearer ${config.apiKey}`;
  if (call.body !== undefined) headers["Content-Type"] = "application/json";
  // Redirects are not part of the API; following one could carry the key or re-post the body elsewhere.
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  return { method: call.method, headers, body, redirect: "manual" };
}

interface Exchange {
  what: string;
  where: string;
  /** Whether a 404 means a missing bank (BankNotFound) rather than a failure. */
  missing: boolean;
}

/** Sends the request and reads the body; a non-2xx answer becomes a 502 describing it. */
async function exchange(fetchImpl: typeof fetch, url: string, init: RequestInit, { what, where, missing }: Exchange): Promise<string> {
  const res = await fetchImpl(url, init);
  const text = await readAnswer(res, where);
  if (res.status >= 200 && res.status <= 299) return text;
  if (res.status === 404 && missing) throw new BankNotFound();
  const status = `${res.status} ${STATUS_CODES[res.status] ?? ""}`.trim();
  const reason = res.status === 422 ? validationSummary(text) : "";
  throw badGateway(`${where} answered ${status} to ${what}${reason ? `: ${reason}` : ""}.`);
}

async function readAnswer(res: Response, where: string): Promise<string> {
  if (!res.body) return "";
  const tooLarge = () => badGateway(`${where} sent an answer larger than ${MAX_BODY_BYTES} bytes.`);
  return (await readCapped(res.body, MAX_BODY_BYTES, tooLarge)).toString("utf8");
}

function parseAnswer<S extends z.ZodType>(text: string, schema: S, what: string, where: string): z.output<S> {
  // §10's limits apply to Hindsight's answers too: too deep or unstorable is its failure, not ours.
  const answer = parseUpstreamJson(text);
  if (answer.problem !== undefined) {
    throw badGateway(`${where} answered ${what} with a body that ${answer.problem}.`, answer.errors, answer.type);
  }
  const parsed = schema.safeParse(answer.value, { error: errorMap });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const at = issue ? formatPath(issue.path) : "";
  const problem = issue ? `${at ? `${at} ` : "the body "}${issue.message}` : "unexpected shape";
  throw badGateway(`${where} answered ${what} with a body that is not the documented shape (${problem}).`);
}

/** FastAPI's `{detail: [{loc, msg}]}` in a few words: the first three problems, each trimmed. */
function validationSummary(text: string): string {
  const { value, problem } = parseUpstreamJson(text);
  if (problem !== undefined) return "";
  const detail = (value as { detail?: unknown } | null)?.detail;
  if (typeof detail === "string") return trim(detail);
  if (!Array.isArray(detail)) return "";
  const items = detail.slice(0, 3).map((item: { loc?: unknown; msg?: unknown }) => {
    const loc = Array.isArray(item?.loc) ? item.loc.join(".") : "";
    const msg = typeof item?.msg === "string" ? item.msg : "invalid";
    return trim(loc ? `${loc}: ${msg}` : msg);
  });
  const more = detail.length > 3 ? ` (and ${detail.length - 3} more)` : "";
  return items.join("; ") + more;
}

const trim = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

// ---------------------------------------------------------------------------------------------------------
// Deadline and error mapping

/**
 * Runs `work` with a signal that aborts after `ms`, and stops waiting at that moment even if `work`
 * ignores the signal (an injected fetch may): the deadline covers headers and body alike.
 */
async function withDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DeadlineExceeded();
      controller.abort(error);
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), expired]);
  } catch (error) {
    // Whichever settles first, an aborted exchange failed because time ran out.
    throw controller.signal.aborted ? new DeadlineExceeded() : error;
  } finally {
    clearTimeout(timer);
  }
}

const toDomainError = (error: unknown, where: string, timeoutMs: number): DomainError =>
  upstreamFailure(error, where, timeoutMs, error instanceof DeadlineExceeded);

/** The configured URL without user info, query or fragment: what messages may show. */
function displayBase(url: string): string {
  try {
    return displayUrl(url, { withQuery: false }).replace(/\/+$/, "");
  } catch {
    return "the configured URL";
  }
}
