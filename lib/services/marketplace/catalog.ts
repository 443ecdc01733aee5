import { z } from "zod";
import type { Database } from "@/db/client";
import { badGateway, DomainError, type FieldError, nestedProblem } from "@/lib/contracts/errors";
import {
  cutJsonBelow,
  describeFlaw,
  displayable,
  displayableFlaws,
  jsonFlaws,
  LISTED_FLAWS,
  MAX_JSON_DEPTH,
  parseUpstreamJson,
} from "@/lib/contracts/json-hygiene";
import type { NestedProblem } from "@/lib/contracts/problem-schema";
import type { ProblemType } from "@/lib/contracts/problem-types";
import { upstreamDetailsShape } from "@/lib/contracts/templates/content";
import { CONTENT_FIELDS, DETAIL_KEYS, entryDetails, type TemplateContent } from "@/lib/contracts/templates/content-fields";
import { errorMap, issuesToFieldErrors } from "@/lib/contracts/validation";
import type { ResolveHost } from "@/lib/platform/address";
import type { Config } from "@/lib/platform/config";
import { type OperationOptions, throwIfGone } from "@/lib/platform/operation";
import { mapWithConcurrency } from "@/lib/shared/concurrency";
import { type CachedDocument, type CacheRow, cacheKey, type FetchMode, fetchThroughCache, readEntries } from "./cache";
import { catalogLocation, displayUrl } from "./location";
import { templateRevision } from "./revision";

export interface MarketplaceDeps {
  db: Database;
  config: Config["marketplace"];
  /** Default: the system resolver. Tests map made-up names to chosen addresses. */
  resolveHost?: ResolveHost;
}

export interface MarketplaceSource {
  url: string;
  authToken: string | null;
}

type Manifest = Record<string, unknown>;

/** One resolved catalog entry; `manifest` is not checked against the bank-template schema here. */
export type CatalogTemplate = { id: string } & TemplateContent & { revision: string };

/** A catalog entry whose manifest could not be had; `manifest` is null unless it was fetched. */
export type UnresolvedTemplate = Omit<CatalogTemplate, "manifest" | "revision"> & {
  manifest: Manifest | null;
  revision: null;
  /** Why the entry of a catalog that loaded cannot be installed. */
  problem: NestedProblem;
};

/** What a browse lists per entry: the resolved template, or why there is none. */
export type CatalogListing = (CatalogTemplate & { problem: null }) | UnresolvedTemplate;

export interface Catalog {
  catalogUrl: string;
  name: string | null;
  description: string | null;
  templates: CatalogListing[];
}

/** More entries than this and the catalog is refused before anything else is fetched (CONTRACT §10). */
export const MAX_CATALOG_ENTRIES = 1_000;

// Same rule as template ids (CONTRACT §7): a catalog id becomes an installed id and a URL segment.
const TEMPLATE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const TEMPLATE_ID_RULE = "must be 1-128 characters of A-Z, a-z, 0-9, '.', '_' or '-', starting with a letter or digit";

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Relative, inside the catalog's folder: no scheme, no leading `/`, no `..` (also as `%2e`), no `\`. */
function isSafeRelativePath(path: string): boolean {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path) || path.startsWith("/") || path.includes("\\")) return false;
  return !path.split("/").some((segment) => segment.toLowerCase().replaceAll("%2e", ".") === "..");
}

const catalogEntry = z
  .strictObject({
    id: z.string().regex(TEMPLATE_ID, TEMPLATE_ID_RULE),
    ...upstreamDetailsShape,
    // z.custom keeps the manifest object as parsed (no copy), so its revision covers exactly what was sent.
    manifest: z.custom<Record<string, unknown>>(isPlainObject, "must be an object").optional(),
    manifest_file: z
      .string()
      .min(1, "must not be empty")
      .refine(isSafeRelativePath, "must be a relative path inside the catalog's folder (no URL, leading '/' or '..')")
      .optional(),
  })
  .superRefine((entry, ctx) => {
    if (entry.manifest !== undefined && entry.manifest_file !== undefined) {
      ctx.addIssue({ code: "custom", path: ["manifest_file"], message: "cannot be given together with manifest" });
    } else if (entry.manifest === undefined && entry.manifest_file === undefined) {
      ctx.addIssue({ code: "custom", path: ["manifest"], message: "is required unless manifest_file is given" });
    }
  });

const catalogDocument = z
  .object({
    catalog_version: z.literal("1").optional(),
    name: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    templates: z.array(catalogEntry),
  })
  .superRefine((catalog, ctx) => {
    const firstIndex = new Map<string, number>();
    catalog.templates.forEach((entry, index) => {
      const earlier = firstIndex.get(entry.id);
      if (earlier === undefined) firstIndex.set(entry.id, index);
      else {
        const message = `duplicates templates[${earlier}].id`;
        ctx.addIssue({ code: "custom", path: ["templates", index, "id"], message });
      }
    });
  });

type CatalogEntry = z.output<typeof catalogEntry>;
type CatalogDocument = z.output<typeof catalogDocument>;

function invalidCatalog(url: string, errors: FieldError[], type?: ProblemType): never {
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? "s" : ""})` : "";
  const reason = first ? `${first.path} ${first.message}${more}` : "it does not match the catalog format";
  throw badGateway(`The catalog at ${displayUrl(url)} is invalid: ${reason}.`, errors, type);
}

/** A catalog entry sits in level 3 of its catalog, inside the root object and the `templates` array. */
const ENTRY_LEVEL = 3;

/**
 * The catalog text parsed, nothing in it deeper than an entry may go (CONTRACT §10, §15):
 * deeper parts are cut before the parser sees them and show as too deep where they were.
 */
function parseCatalogJson(url: string, body: string): unknown {
  // A leading BOM is legal in a UTF-8 file but not in JSON.
  const text = cutJsonBelow(body.replace(/^\uFEFF/, ""), ENTRY_LEVEL - 1 + MAX_JSON_DEPTH);
  try {
    return JSON.parse(text);
  } catch {
    // The parser's message quotes the body, which is not ours to echo.
    throw badGateway(`The marketplace at ${displayUrl(url)} did not answer with JSON.`);
  }
}

/** What the catalog says besides its entries, which are judged one by one. */
const withoutEntries = (json: unknown) => (isPlainObject(json) && Array.isArray(json.templates) ? { ...json, templates: [] } : json);

/**
 * What stands for an unusable entry (U+0000, a lone surrogate or too deep, CONTRACT §15) in
 * the catalog's schema check and in a browse: its fields with displayable text, no manifest.
 * Its other faults still make the catalog invalid, as any entry's do.
 */
function standIn(entry: unknown): unknown {
  if (!isPlainObject(entry)) return entry;
  const shown = (value: unknown) => (typeof value === "string" ? displayable(value) : value);
  const list = (value: unknown) => (Array.isArray(value) ? value.map(shown) : value);
  const details = Object.fromEntries(
    DETAIL_KEYS.map((key) => [key, CONTENT_FIELDS[key].kind === "list" ? list(entry[key]) : shown(entry[key])]),
  );
  return { id: entry.id, ...details, manifest: {} };
}

/** An unusable entry's problem: 502 naming its first flaw, and the first few as `errors`. */
function unusableEntry(url: string, index: number, entry: unknown, flaws: FieldError[]): DomainError {
  const id = isPlainObject(entry) && typeof entry.id === "string" ? ` ${displayable(entry.id)}` : "";
  const detail = `The entry${id} (templates[${index}]) of the catalog at ${displayUrl(url)} is unusable: ${describeFlaw(flaws[0]!)}.`;
  return badGateway(detail, displayableFlaws(flaws), "unusable-upstream-content");
}

/** A well-formed catalog and its entries that cannot be used, by index. */
interface ReadCatalog {
  document: CatalogDocument;
  unusable: Map<number, DomainError>;
}

/**
 * Checks a catalog document against CONTRACT §6; 502 with one `errors` entry per problem.
 * An entry holding U+0000, a lone surrogate or nesting deeper than 64 levels is that entry's
 * problem (`unusable`); the same anywhere else in the catalog fails it whole (CONTRACT §15).
 */
function parseCatalog(url: string, body: string): ReadCatalog {
  const json = parseCatalogJson(url, body);
  // Counted before anything else runs: a catalog of 100,000 entries costs no more than its parse.
  const entries: unknown[] = isPlainObject(json) && Array.isArray(json.templates) ? json.templates : [];
  if (entries.length > MAX_CATALOG_ENTRIES) {
    invalidCatalog(url, [{ path: "templates", message: `lists ${entries.length} templates; at most ${MAX_CATALOG_ENTRIES} are allowed` }]);
  }
  const frameFlaws = jsonFlaws(withoutEntries(json), { maxDepth: MAX_JSON_DEPTH, limit: LISTED_FLAWS });
  if (frameFlaws.length) invalidCatalog(url, displayableFlaws(frameFlaws), "unusable-upstream-content");
  const unusable = new Map<number, DomainError>();
  const checked = entries.map((entry, index) => {
    const flaws = jsonFlaws(entry, { maxDepth: MAX_JSON_DEPTH, at: ["templates", index], limit: LISTED_FLAWS });
    if (!flaws.length) return entry;
    unusable.set(index, unusableEntry(url, index, entry, flaws));
    return standIn(entry);
  });
  const result = catalogDocument.safeParse(unusable.size ? { ...(json as object), templates: checked } : json, { error: errorMap });
  if (!result.success) invalidCatalog(url, issuesToFieldErrors(result.error.issues));
  return { document: result.data, unusable };
}

const catalogDocumentKind: CachedDocument<ReadCatalog> = {
  kind: "catalog",
  read: parseCatalog,
  // Not kept while an entry is unusable, so the marketplace's fix is heard on the next request.
  cacheable: (catalog) => catalog.unusable.size === 0,
};

const manifestDocumentKind: CachedDocument<Manifest> = {
  kind: "manifest",
  read(url, body) {
    const parsed = parseUpstreamJson(body);
    if (parsed.problem !== undefined) throw badGateway(`The manifest at ${displayUrl(url)} ${parsed.problem}.`, parsed.errors, parsed.type);
    if (!isPlainObject(parsed.value)) throw badGateway(`The manifest at ${displayUrl(url)} is not a JSON object.`);
    return parsed.value;
  },
};

/** Everything one operation fetches shares the source's credential, its mode, start and signal. */
class CatalogSession {
  readonly catalogUrl: string;
  private readonly authOrigin: string;
  private readonly since: number;
  readonly signal: AbortSignal | undefined;
  private readonly onCatalogLoaded: OperationOptions["onCatalogLoaded"];
  /** Entries read in one go before many fetches, by key; null for a key that had none. */
  private readonly known = new Map<string, CacheRow | null>();

  constructor(
    private readonly deps: MarketplaceDeps,
    private readonly source: MarketplaceSource,
    private readonly mode: FetchMode,
    options: OperationOptions,
  ) {
    this.catalogUrl = catalogLocation(source.url);
    this.authOrigin = new URL(this.catalogUrl).origin;
    this.since = options.since ?? Date.now();
    this.signal = options.signal;
    this.onCatalogLoaded = options.onCatalogLoaded;
  }

  /** Reads the cache entries of `urls` in a few queries instead of one each. */
  async prefetch(urls: string[]): Promise<void> {
    const keys = urls.map((url) => cacheKey(url, this.source.authToken));
    const found = await readEntries(this.deps.db, keys);
    for (const key of keys) this.known.set(key, found.get(key) ?? null);
  }

  private fetchResolved<T>(url: string, document: CachedDocument<T>) {
    const { db, config, resolveHost } = this.deps;
    const policy = { ...config, resolveHost };
    const request = { url, authToken: this.source.authToken, authOrigin: this.authOrigin };
    const key = cacheKey(url, this.source.authToken);
    const known = this.known.get(key);
    return fetchThroughCache(db, policy, request, document, { mode: this.mode, since: this.since, signal: this.signal, known });
  }

  async fetch<T>(url: string, document: CachedDocument<T>): Promise<T> {
    return (await this.fetchResolved(url, document)).value;
  }

  /** The catalog document, and when the marketplace last answered for it. */
  catalog() {
    return this.fetchResolved(this.catalogUrl, catalogDocumentKind);
  }

  /** Tells the operation's observer that the catalog itself was had and is well formed. */
  catalogLoaded(fetchedAt: Date): void {
    this.onCatalogLoaded?.(fetchedAt);
  }
}

/** `manifest_file` resolved against the catalog's folder, refusing anything that escapes it. */
function manifestUrl(catalogUrl: string, path: string, index: number): string {
  const folder = new URL(".", catalogUrl);
  const resolved = new URL(path, folder);
  if (resolved.origin !== folder.origin || !resolved.pathname.startsWith(folder.pathname)) {
    const message = "must be a relative path inside the catalog's folder";
    invalidCatalog(catalogUrl, [{ path: `templates[${index}].manifest_file`, message }]);
  }
  return resolved.toString();
}

/** The entry's id and details as a template has them: an absent `text?` null, an absent list []. */
const entryFields = (entry: CatalogEntry) => ({ id: entry.id, ...entryDetails(entry) });

async function loadManifest(session: CatalogSession, entry: CatalogEntry, url: string | null): Promise<Manifest> {
  if (entry.manifest !== undefined) return entry.manifest;
  return session.fetch(url!, manifestDocumentKind);
}

function resolved(entry: CatalogEntry, manifest: Manifest): CatalogTemplate {
  const { id, ...content } = { ...entryFields(entry), manifest };
  return { id, ...content, revision: templateRevision(content) };
}

// Manifest files are fetched a few at a time: enough to hide latency, few enough to be polite (CONTRACT §10).
export const MANIFEST_CONCURRENCY = 8;

/**
 * Fetches a source's catalog and resolves every entry, manifest files included. Only a catalog
 * that cannot be fetched or parsed fails the load; an entry whose manifest cannot be had is
 * listed with its problem (CONTRACT §12).
 */
export async function loadCatalog(
  deps: MarketplaceDeps,
  source: MarketplaceSource,
  mode: FetchMode,
  options: OperationOptions = {},
): Promise<Catalog> {
  const session = new CatalogSession(deps, source, mode, options);
  const {
    value: { document, unusable },
    fetchedAt,
  } = await session.catalog();
  // Every path is checked before the first manifest is fetched: an escaping one makes the catalog invalid.
  const urls = document.templates.map((entry, index) =>
    entry.manifest_file === undefined ? null : manifestUrl(session.catalogUrl, entry.manifest_file, index),
  );
  // From here on a failure is one entry's (or the client's), not the catalog's.
  session.catalogLoaded(fetchedAt);
  await session.prefetch(urls.filter((url) => url !== null));
  // An entry's own failure is caught below; what still throws (the client gone, a bug) stops new fetches.
  const templates = await mapWithConcurrency(
    document.templates,
    MANIFEST_CONCURRENCY,
    async (entry, index) => {
      throwIfGone(session.signal);
      const unusableEntry = unusable.get(index);
      if (unusableEntry) return unresolved(entry, nestedProblem(unusableEntry));
      try {
        return { ...resolved(entry, await loadManifest(session, entry, urls[index]!)), problem: null };
      } catch (error) {
        if (!(error instanceof DomainError) || session.signal?.aborted) throw error;
        return unresolved(entry, nestedProblem(error));
      }
    },
    { stopOnError: true },
  );
  return {
    catalogUrl: session.catalogUrl,
    name: document.name ?? null,
    description: document.description ?? null,
    templates,
  };
}

/** The listing of an entry whose manifest could not be fetched or read. */
function unresolved(entry: CatalogEntry, problem: NestedProblem): UnresolvedTemplate {
  return { ...entryFields(entry), manifest: null, revision: null, problem };
}

/** The listing of a resolved entry that cannot be installed after all (its manifest is invalid): kept for review, without a revision. */
export function withProblem(template: CatalogTemplate, problem: NestedProblem): UnresolvedTemplate {
  return { ...template, revision: null, problem };
}

/**
 * Fetches a source's catalog and resolves one entry; null when the catalog has no such id.
 * Only that entry's manifest is fetched, so other entries' problems do not matter here.
 */
export async function loadCatalogTemplate(
  deps: MarketplaceDeps,
  source: MarketplaceSource,
  templateId: string,
  mode: FetchMode,
  options: OperationOptions = {},
): Promise<CatalogTemplate | null> {
  const session = new CatalogSession(deps, source, mode, options);
  const {
    value: { document, unusable },
    fetchedAt,
  } = await session.catalog();
  const index = document.templates.findIndex((entry) => entry.id === templateId);
  const entry = document.templates[index];
  const unusableEntry = unusable.get(index);
  // An escaping manifest_file makes the catalog invalid (as browsing it would find).
  const url = entry?.manifest_file === undefined ? null : manifestUrl(session.catalogUrl, entry.manifest_file, index);
  // From here on a failure is the entry's (or the client's), not the catalog's.
  session.catalogLoaded(fetchedAt);
  if (!entry) return null;
  if (unusableEntry) throw unusableEntry;
  return resolved(entry, await loadManifest(session, entry, url));
}
