import { z } from "zod";
import type { Database } from "@/db/client";
import { badGateway, type FieldError } from "@/lib/http/errors";
import { errorMap, issuesToFieldErrors } from "@/lib/http/validation";
import type { Config } from "@/lib/server/config";
import type { ResolveHost } from "./address";
import { fetchThroughCache, type CachedBody, type FetchMode } from "./cache";
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

/** One resolved catalog entry; `manifest` is not checked against the bank-template schema here. */
export interface CatalogTemplate {
  id: string;
  name: string;
  description: string | null;
  category: string | null;
  integrations: string[];
  tags: string[];
  manifest: Record<string, unknown>;
  revision: string;
}

export interface Catalog {
  catalogUrl: string;
  name: string | null;
  description: string | null;
  templates: CatalogTemplate[];
}

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
    name: z.string().refine((name) => name.trim().length > 0, "must not be blank"),
    description: z.string().nullable().optional(),
    category: z.string().nullable().optional(),
    integrations: z.array(z.string()).optional(),
    tags: z.array(z.string()).optional(),
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
export type CatalogDocument = z.output<typeof catalogDocument>;

function invalidCatalog(url: string, errors: FieldError[]): never {
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? "s" : ""})` : "";
  const reason = first ? `${first.path} ${first.message}${more}` : "it does not match the catalog format";
  throw badGateway(`The catalog at ${displayUrl(url)} is invalid: ${reason}.`, errors);
}

function parseJson(url: string, body: string): unknown {
  try {
    // A leading BOM is legal in a UTF-8 file but not in JSON.
    return JSON.parse(body.replace(/^\uFEFF/, ""));
  } catch {
    // The parser's message quotes the body, which is not ours to echo.
    throw badGateway(`The marketplace at ${displayUrl(url)} did not answer with JSON.`);
  }
}

/** Checks a catalog document against CONTRACT §6; 502 with one `errors` entry per problem. */
export function parseCatalog(url: string, body: string): CatalogDocument {
  const result = catalogDocument.safeParse(parseJson(url, body), { error: errorMap });
  if (!result.success) invalidCatalog(url, issuesToFieldErrors(result.error.issues));
  return result.data;
}

/** Everything one load fetches shares the source's credential and commits its cache writes together. */
class CatalogSession {
  private readonly pending: CachedBody[] = [];
  readonly catalogUrl: string;
  private readonly authOrigin: string;

  constructor(
    private readonly deps: MarketplaceDeps,
    private readonly source: MarketplaceSource,
    private readonly mode: FetchMode,
  ) {
    this.catalogUrl = catalogLocation(source.url);
    this.authOrigin = new URL(this.catalogUrl).origin;
  }

  async fetchBody(url: string): Promise<string> {
    const { db, config, resolveHost } = this.deps;
    const policy = { ...config, resolveHost };
    const request = { url, authToken: this.source.authToken, authOrigin: this.authOrigin };
    const fetched = await fetchThroughCache(db, policy, request, this.mode);
    this.pending.push(fetched);
    return fetched.body;
  }

  async commit(): Promise<void> {
    for (const fetched of this.pending.splice(0)) await fetched.store();
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

type Manifest = Record<string, unknown>;

async function loadManifest(session: CatalogSession, entry: CatalogEntry, index: number): Promise<Manifest> {
  if (entry.manifest !== undefined) return entry.manifest;
  const url = manifestUrl(session.catalogUrl, entry.manifest_file!, index);
  const manifest = parseJson(url, await session.fetchBody(url));
  if (!isPlainObject(manifest)) throw badGateway(`The manifest at ${displayUrl(url)} is not a JSON object.`);
  return manifest;
}

async function resolveEntry(session: CatalogSession, entry: CatalogEntry, index: number): Promise<CatalogTemplate> {
  const manifest = await loadManifest(session, entry, index);
  const content = {
    name: entry.name,
    description: entry.description ?? null,
    category: entry.category ?? null,
    integrations: entry.integrations ?? [],
    tags: entry.tags ?? [],
    manifest,
  };
  return { id: entry.id, ...content, revision: templateRevision(content) };
}

// Manifest files are fetched a few at a time: enough to hide latency, few enough to be polite.
const MANIFEST_CONCURRENCY = 4;

/** Like Promise.all over `items`, with at most `limit` calls running; stops starting new ones after a failure. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Fetches a source's catalog and resolves every entry, manifest files included. */
export async function loadCatalog(deps: MarketplaceDeps, source: MarketplaceSource, mode: FetchMode): Promise<Catalog> {
  const session = new CatalogSession(deps, source, mode);
  const document = parseCatalog(session.catalogUrl, await session.fetchBody(session.catalogUrl));
  const templates = await mapLimited(document.templates, MANIFEST_CONCURRENCY, (entry, index) =>
    resolveEntry(session, entry, index),
  );
  await session.commit();
  return {
    catalogUrl: session.catalogUrl,
    name: document.name ?? null,
    description: document.description ?? null,
    templates,
  };
}

/**
 * Fetches a source's catalog and resolves one entry; null when the catalog has no such id.
 * `accept` may refuse the entry by throwing; the fetched bodies are cached only after it passes,
 * so nothing is written on any failure.
 */
export async function loadCatalogTemplate(
  deps: MarketplaceDeps,
  source: MarketplaceSource,
  templateId: string,
  mode: FetchMode,
  accept: (template: CatalogTemplate) => void = () => {},
): Promise<CatalogTemplate | null> {
  const session = new CatalogSession(deps, source, mode);
  const document = parseCatalog(session.catalogUrl, await session.fetchBody(session.catalogUrl));
  const index = document.templates.findIndex((entry) => entry.id === templateId);
  if (index === -1) {
    await session.commit();
    return null;
  }
  const template = await resolveEntry(session, document.templates[index]!, index);
  accept(template);
  await session.commit();
  return template;
}
