import { z } from "zod";
import {
  CONTENT_FIELDS,
  CONTENT_KEYS,
  type ContentKey,
  type ContentKind,
  type ContentValue,
  DETAIL_KEYS,
  type DetailKey,
  type KindOf,
} from "./content-fields";
import { BankTemplateManifest } from "./manifest";

// The schemas of a template's content fields (content-fields.ts declares the fields), and the
// shapes every request and answer that carries the content is made of.

const label = z.string().trim().min(1, "must not be blank").max(100);
const labels = z.array(label).max(100);
/** Any text but blank: a name as a marketplace may send it. */
const nonBlank = z.string().refine((s) => s.trim().length > 0, "must not be blank");
const templateName = nonBlank.max(200);
const homepageUrl = z.url({ protocol: /^https?$/, error: "must be an http or https URL" }).max(2048);

interface FieldSchemas {
  /** What the field means, in the API's document. */
  about: string;
  /** What a create or patch must satisfy (null or absence aside, which the kind decides). */
  write: z.ZodType;
  /** What a marketplace's catalog entry must satisfy; by default the kind's answer type. */
  upstream?: z.ZodType;
}

const SCHEMAS: Record<ContentKey, FieldSchemas> = {
  name: {
    about: "The template's display name.",
    write: templateName,
    upstream: nonBlank,
  },
  description: { about: "What the template is for; null when not given.", write: z.string().max(5000) },
  category: { about: "One label to group templates by; null when not given.", write: label },
  integrations: { about: "The tools or products the template works with.", write: labels },
  tags: { about: "Free labels to find the template by.", write: labels },
  homepage_url: {
    about: "The template's home page, an http or https URL (its catalog entry's, or set by hand); null when it has none.",
    write: homepageUrl,
    upstream: homepageUrl,
  },
  manifest: { about: "The bank-template manifest.", write: BankTemplateManifest },
};

function answerSchema(kind: ContentKind): z.ZodType {
  switch (kind) {
    case "text":
      return z.string();
    case "text?":
      return z.string().nullable();
    case "list":
      return z.array(z.string());
    case "manifest":
      return BankTemplateManifest;
  }
}

// The schema of field K holding V: the manifest's own schema, or one whose input and output are V.
type Schema<K extends ContentKey, V> = K extends "manifest" ? typeof BankTemplateManifest : z.ZodType<V, V>;
// Null where a write takes it for the kind (a `text?` clears with it).
type NullIf<K extends ContentKey> = KindOf<K> extends "text?" ? null : never;

// A shape of `keys`, each value made by `schema` from the field's kind and schemas; its type is
// what the caller declares (the tests of every request and answer check what it makes).
function shapeOf<S>(keys: readonly ContentKey[], schema: (kind: ContentKind, schemas: FieldSchemas) => z.ZodType): S {
  return Object.fromEntries(keys.map((key) => [key, schema(CONTENT_FIELDS[key].kind, SCHEMAS[key])])) as S;
}

/** The content fields as the Template answers them, each with its description. */
export const contentAnswerShape = shapeOf<{ [K in ContentKey]: Schema<K, ContentValue<K>> }>(CONTENT_KEYS, (kind, { about }) =>
  answerSchema(kind).meta({ description: about }),
);

const { manifest: _manifest, ...details } = contentAnswerShape;
/** The details (the content but the manifest) as answered. */
export const detailsAnswerShape = details;

/** The content with the manifest as any object: what a preview shows (a merge may hold any manifest). */
export const TemplateContentSchema = z.object({ ...detailsAnswerShape, manifest: z.record(z.string(), z.unknown()) });

/** POST T: a `text` field and the manifest are required; a `text?` may be null; a list defaults to []. */
export const createContentShape = shapeOf<{
  [K in ContentKey]: KindOf<K> extends "text" | "manifest"
    ? Schema<K, ContentValue<K>>
    : z.ZodOptional<Schema<K, ContentValue<K> | NullIf<K>>>;
}>(CONTENT_KEYS, (kind, { write }) => {
  if (kind === "text?") return write.nullish();
  if (kind === "list") return write.optional();
  return write;
});

/**
 * PATCH T/{id} (CONTRACT §15): every field optional. hindclaw's clients send every field they
 * leave unset as null, so null leaves a `text`, `list` or `manifest` field as it is and clears a
 * `text?` one.
 */
export const patchContentShape = shapeOf<{
  [K in ContentKey]: K extends "manifest"
    ? z.ZodOptional<z.ZodNullable<typeof BankTemplateManifest>>
    : z.ZodOptional<z.ZodType<ContentValue<K> | null, ContentValue<K> | null>>;
}>(CONTENT_KEYS, (_kind, { write }) => write.nullish());

/**
 * A marketplace's catalog entry, its details (the manifest comes as `manifest` or
 * `manifest_file` and is checked apart): a `text?` may be absent or null, a list absent.
 */
export const upstreamDetailsShape = shapeOf<{
  [K in DetailKey]: KindOf<K> extends "text" ? Schema<K, ContentValue<K>> : z.ZodOptional<Schema<K, ContentValue<K> | NullIf<K>>>;
}>(DETAIL_KEYS, (kind, { upstream }) => {
  const schema = upstream ?? answerSchema(kind);
  if (kind === "text?") return schema.nullish();
  if (kind === "list") return schema.optional();
  return schema;
});
