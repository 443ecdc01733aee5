// A template's content, declared once: the fields a create sets, a patch changes, a version
// keeps, a catalog entry carries (and an install or update takes from it), and a merge
// compares. This file is plain data, which the console imports too; content.ts gives each field
// its schemas, and every request and answer schema of the content derives from both. A new field
// is a line here and one in content.ts, its column (db/schema.ts, templateContentColumns), its
// line in lib/services/templates/template-fields.ts and its input in the console's form
// (components/templates/TemplateMetadataFields.tsx); a missing one of those does not compile.

/**
 * How a field is held, which decides everything derived from it:
 * - `text`: a string every template has (a create must give it; null in a patch leaves it);
 * - `text?`: a string or null (absent in a create is null; null in a patch clears it);
 * - `list`: strings (absent in a create is []; null in a patch leaves it);
 * - `manifest`: the bank-template manifest (a create must give it; null in a patch leaves it).
 */
export type ContentKind = "text" | "text?" | "list" | "manifest";

interface ContentField {
  kind: ContentKind;
  /** Its name in the console. */
  label: string;
  /**
   * Counted in the revision only when set: a field added after CONTRACT §6 fixed the revision's
   * input, so that entries without it keep the revision they had.
   */
  revisionWhenSet?: true;
}

/** The content fields, in the order the API answers them. */
export const CONTENT_FIELDS = {
  name: { kind: "text", label: "Name" },
  description: { kind: "text?", label: "Description" },
  category: { kind: "text?", label: "Category" },
  integrations: { kind: "list", label: "Integrations" },
  tags: { kind: "list", label: "Tags" },
  homepage_url: { kind: "text?", label: "Home page", revisionWhenSet: true },
  manifest: { kind: "manifest", label: "Manifest" },
} as const satisfies Record<string, ContentField>;

type Fields = typeof CONTENT_FIELDS;
export type ContentKey = keyof Fields;
/** The content fields besides the manifest: a template's details. */
export type DetailKey = Exclude<ContentKey, "manifest">;
export type KindOf<K extends ContentKey> = Fields[K]["kind"];

export const CONTENT_KEYS = Object.keys(CONTENT_FIELDS) as ContentKey[];
export const DETAIL_KEYS = CONTENT_KEYS.filter((key): key is DetailKey => key !== "manifest");

// The TypeScript value of each kind, answered (the manifest as any object).
type ValueOf<K extends ContentKind> = K extends "text"
  ? string
  : K extends "text?"
    ? string | null
    : K extends "list"
      ? string[]
      : Record<string, unknown>;
export type ContentValue<K extends ContentKey> = ValueOf<KindOf<K>>;

/** A template's content as answered, with any manifest object (what a merge and a preview compare). */
export type TemplateContent = { [K in ContentKey]: ContentValue<K> };
/** A template's details: its content but the manifest. */
export type TemplateDetails = Pick<TemplateContent, DetailKey>;

/** What a field holds when it was not given: a `text?` null, a list empty. */
export const EMPTY_VALUE: Partial<Record<ContentKind, null | never[]>> = { "text?": null, list: [] };

/** A catalog entry's details with the absent ones filled in (null, []), as a template has them. */
export function entryDetails(entry: { [K in DetailKey]?: ContentValue<K> | null }): TemplateDetails {
  return Object.fromEntries(DETAIL_KEYS.map((key) => [key, entry[key] ?? EMPTY_VALUE[CONTENT_FIELDS[key].kind]])) as TemplateDetails;
}

/**
 * What a template's revision covers (CONTRACT §6): every content field, absent ones as null or
 * []; a field counted only when set is left out while it is null.
 */
export function revisionContent(content: TemplateContent): Partial<TemplateContent> {
  const out: Record<string, unknown> = {};
  for (const key of CONTENT_KEYS) {
    const field: ContentField = CONTENT_FIELDS[key];
    if (field.revisionWhenSet && content[key] == null) continue;
    out[key] = content[key];
  }
  return out as Partial<TemplateContent>;
}

/** Just the content of a template (or of any answer carrying its fields): what a merge compares. */
export function contentOf(template: TemplateContent): TemplateContent {
  return Object.fromEntries(CONTENT_KEYS.map((key) => [key, template[key]])) as TemplateContent;
}
