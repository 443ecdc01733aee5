import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { templates, type templateVersions } from "@/db/schema";
import { iso, isoOrNull } from "@/lib/contracts/fields";
import { CONTENT_FIELDS, type ContentKey, EMPTY_VALUE } from "@/lib/contracts/templates/content-fields";
import type { Template } from "@/lib/contracts/templates/schemas";

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateWire = z.input<typeof Template>;

/**
 * How a column is answered: as it is (`string`, `string?` nullable, `strings` a text array,
 * `bool`), a timestamp as ISO text (`time`, `time?` nullable), or the manifest (json, its
 * stored text, so its keys keep their order).
 */
type FieldKind = "string" | "string?" | "strings" | "bool" | "time" | "time?" | "manifest";

interface TemplateField {
  /** The key in the API's answer (the Template schema). */
  wire: keyof TemplateWire;
  /** The column of `templates` (its property in a drizzle row). */
  column: keyof TemplateRow;
  kind: FieldKind;
  /**
   * In every version (template_versions has the same column): `content` is what a write sets
   * (and an install or update takes from the catalog entry), `state` the source revision and the
   * local-edit mark it left. A rollback restores both.
   */
  version?: "content" | "state";
}

/**
 * A template's fields, once: in the order the API answers them. The JS presenter
 * (presentTemplate), the JSON the database writes for the hot reads (templateJson), the
 * version snapshot and its presenters, and what an install takes from a catalog entry are all
 * derived from this list, and so are what a create and a patch write of the content. A new
 * field: its column (db/schema.ts and a migration), its key in the Template schema, and its line
 * here; a content field is declared in lib/contracts/templates/content-fields.ts, which gives
 * the requests, versions and catalog entries their key (a content field missing here does not
 * compile).
 */
const TEMPLATE_FIELDS = [
  { wire: "id", column: "id", kind: "string" },
  { wire: "name", column: "name", kind: "string", version: "content" },
  { wire: "description", column: "description", kind: "string?", version: "content" },
  { wire: "category", column: "category", kind: "string?", version: "content" },
  { wire: "integrations", column: "integrations", kind: "strings", version: "content" },
  { wire: "tags", column: "tags", kind: "strings", version: "content" },
  { wire: "homepage_url", column: "homepageUrl", kind: "string?", version: "content" },
  { wire: "scope", column: "scope", kind: "string" },
  { wire: "owner", column: "owner", kind: "string?" },
  { wire: "source_name", column: "sourceName", kind: "string?" },
  { wire: "source_scope", column: "sourceScope", kind: "string?" },
  { wire: "source_owner", column: "sourceOwner", kind: "string?" },
  { wire: "source_revision", column: "sourceRevision", kind: "string?", version: "state" },
  { wire: "locally_modified", column: "locallyModified", kind: "bool", version: "state" },
  { wire: "latest_revision", column: "latestRevision", kind: "string?" },
  { wire: "update_checked_at", column: "updateCheckedAt", kind: "time?" },
  { wire: "installed_at", column: "installedAt", kind: "time" },
  { wire: "updated_at", column: "updatedAt", kind: "time" },
  { wire: "manifest", column: "manifest", kind: "manifest", version: "content" },
] as const satisfies readonly TemplateField[];

type Field = (typeof TEMPLATE_FIELDS)[number];

// Every key of the Template schema is in the list, and nothing else.
type Missing = Exclude<keyof TemplateWire, Field["wire"]>;
const everyWireKeyListed: [Missing] extends [never] ? true : Missing = true;
void everyWireKeyListed;

type ContentField = Extract<Field, { version: "content" }>;

// The versioned content is exactly a template's content (lib/contracts/templates/content-fields.ts).
type ContentMismatch = Exclude<ContentKey, ContentField["wire"]> | Exclude<ContentField["wire"], ContentKey>;
const contentListed: [ContentMismatch] extends [never] ? true : ContentMismatch = true;
void contentListed;
type StateField = Extract<Field, { version: "state" }>;
export type VersionedColumn = Extract<Field, { version: string }>["column"];

const CONTENT = TEMPLATE_FIELDS.filter((f): f is ContentField => "version" in f && f.version === "content");
const STATE = TEMPLATE_FIELDS.filter((f): f is StateField => "version" in f && f.version === "state");

function presentValue(kind: FieldKind, value: unknown): unknown {
  if (kind === "time") return iso(value as Date);
  if (kind === "time?") return isoOrNull(value as Date | null);
  return value;
}

/** The wire form of `fields` of a row (of templates, or of template_versions for the versioned ones). */
function presentFields<F extends Field>(fields: readonly F[], row: Pick<TemplateRow, F["column"]>): Pick<TemplateWire, F["wire"]> {
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field.wire] = presentValue(field.kind, row[field.column as F["column"]]);
  return out as Pick<TemplateWire, F["wire"]>;
}

export const presentTemplate = (row: TemplateRow): TemplateWire => presentFields(TEMPLATE_FIELDS, row);

/** A version's source revision and local-edit mark, as answered. */
export const presentVersionState = (row: Pick<TemplateRow, StateField["column"]>) => presentFields(STATE, row);

/** A version's content (name … manifest), as answered. */
export const presentVersionContent = (row: Pick<TemplateRow, ContentField["column"]>) => presentFields(CONTENT, row);

/** The columns a version keeps of a template row (or of a version row, for a rollback to restore). */
export function versionSnapshot(row: Pick<TemplateRow, VersionedColumn>): Pick<typeof templateVersions.$inferInsert, VersionedColumn> {
  const out: Record<string, unknown> = {};
  for (const field of [...CONTENT, ...STATE]) out[field.column] = row[field.column];
  return out as Pick<TemplateRow, VersionedColumn>;
}

/** A template's content as a request gives it: by wire name, any field absent or null. */
type ContentInput = { [F in ContentField as F["wire"]]?: TemplateRow[F["column"]] | null };

/** The content columns of a new template (POST T): what the request gave, EMPTY for the rest. */
export function createdContent(body: ContentInput & Pick<TemplateRow, "name" | "manifest">): Pick<TemplateRow, ContentField["column"]> {
  const out: Record<string, unknown> = {};
  for (const field of CONTENT) out[field.column] = body[field.wire] ?? EMPTY_VALUE[CONTENT_FIELDS[field.wire].kind];
  return out as Pick<TemplateRow, ContentField["column"]>;
}

/**
 * The content columns a PATCH sets (CONTRACT §15): an absent field is left as it is; null
 * clears a nullable one (description, category) and leaves any other as it is.
 */
export function patchedContent(patch: ContentInput): Partial<Pick<TemplateRow, ContentField["column"]>> {
  const out: Record<string, unknown> = {};
  for (const field of CONTENT) {
    const value = patch[field.wire];
    if (field.kind === "string?" ? value !== undefined : value != null) out[field.column] = value;
  }
  return out as Partial<Pick<TemplateRow, ContentField["column"]>>;
}

/** A template's content as a catalog entry holds it: by wire name, with the columns' types. */
type EntryContent = { [F in ContentField as F["wire"]]: TemplateRow[F["column"]] };

/** What a catalog entry says about its template, as the content columns an install or update writes. */
export function contentColumns(entry: EntryContent): Pick<TemplateRow, ContentField["column"]> {
  const out: Record<string, unknown> = {};
  for (const field of CONTENT) out[field.column] = entry[field.wire];
  return out as Pick<TemplateRow, ContentField["column"]>;
}

/** Just that content of a catalog entry, as answered (an update preview's `latest`). */
export function contentWire(entry: EntryContent): EntryContent {
  const out: Record<string, unknown> = {};
  for (const field of CONTENT) out[field.wire] = entry[field.wire];
  return out as EntryContent;
}

/*
 * presentTemplate's answer, written by PostgreSQL as JSON text: the hot reads (GET one template,
 * a page of the list) send it as it is (JsonText), so no row is mapped, no Date parsed and
 * formatted, no manifest parsed and encoded again. It is byte for byte
 * JSON.stringify(presentTemplate(row)) (tests/template-json.test.ts): the same keys in the same
 * order and no spaces; to_json escapes strings as JSON.stringify does and writes text arrays as
 * arrays of strings; timestamps (stored to the millisecond) are written as Date.toISOString()
 * writes them; the manifest, a `json` column, is spliced in as the text it was stored as, so its
 * keys keep their order.
 */
const jsonIsoTime = (column: AnyPgColumn) => sql`'"' || to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'`;

function jsonValue(kind: FieldKind, column: AnyPgColumn): SQL {
  switch (kind) {
    case "string":
    case "strings":
      return sql`to_json(${column})::text`;
    case "string?":
      return sql`coalesce(to_json(${column})::text, 'null')`;
    case "bool":
      return sql`case when ${column} then 'true' else 'false' end`;
    case "time":
      return jsonIsoTime(column);
    case "time?":
      return sql`coalesce(${jsonIsoTime(column)}, 'null')`;
    case "manifest":
      return sql`${column}::text`;
  }
}

export const templateJson = sql<string>`(${sql.join(
  [
    ...TEMPLATE_FIELDS.map(
      (field, i) => sql`${sql.raw(`'${i === 0 ? "{" : ","}"${field.wire}":'`)} || ${jsonValue(field.kind, templates[field.column])}`,
    ),
    sql`'}'`,
  ],
  sql` || `,
)})`;
