import "server-only";
import { openApiSchemas } from "@/lib/shared/openapi-schemas";
import hindsightDocument from "./hindsight-banks-openapi.json";

/*
 * Manifest entries as Hindsight holds them once imported (CONTRACT §15): its import fills in the
 * `default` keywords of its schemas, as Pydantic does: a mental model's tags [], max_tokens 2048 and
 * trigger {} whose own defaults (mode "full", refresh_after_consolidation, exclude_mental_models and
 * keep_trace false) follow; a directive's priority 0, is_active true and tags []. The defaults are read
 * from Hindsight's OpenAPI document (the facts `npm run schema:vendor` keeps), so a newer Hindsight is a
 * re-vendoring away, and ajv applies them (`useDefaults`) the way a JSON-schema validator defines it.
 */

type Entry = Record<string, unknown>;

let validators: ReturnType<typeof compileEntrySchemas> | undefined;

function compileEntrySchemas() {
  const { named } = openApiSchemas(hindsightDocument, { useDefaults: true });
  return { mentalModel: named("BankTemplateMentalModel"), directive: named("BankTemplateDirective") };
}

/** A copy of the entry with Hindsight's defaults filled in; validity is not judged here (our manifest check did). */
function withDefaults(kind: "mentalModel" | "directive", entry: Entry): Entry {
  validators ??= compileEntrySchemas();
  const copy = structuredClone(entry);
  validators[kind](copy);
  return copy;
}

/** Hindsight reports a trigger field it holds no value for as null or not at all: both mean unset. */
function withoutNulls(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null));
}

/** The fields of a manifest entry Hindsight reports, those it holds no value for left out. */
function pick(entry: Entry, fields: readonly string[]): Entry {
  return Object.fromEntries(fields.filter((field) => entry[field] != null).map((field) => [field, entry[field]]));
}

const MENTAL_MODEL_FIELDS = ["id", "name", "source_query", "tags", "max_tokens", "trigger"] as const;
const DIRECTIVE_FIELDS = ["name", "content", "priority", "is_active", "tags"] as const;

/** A mental model in a manifest's shape, as Hindsight reports it (no defaults added). */
export const reportedMentalModel = (model: Entry): Entry => pick(model, MENTAL_MODEL_FIELDS);

/** A directive in a manifest's shape, as Hindsight reports it. */
export const reportedDirective = (directive: Entry): Entry => pick(directive, DIRECTIVE_FIELDS);

/** The fields of each request that puts one entry through Hindsight's item endpoints (CONTRACT §21). */
const REQUEST_FIELDS = {
  createMentalModel: ["id", ...MENTAL_MODEL_FIELDS.slice(1)],
  updateMentalModel: MENTAL_MODEL_FIELDS.slice(1),
  createDirective: DIRECTIVE_FIELDS,
  updateDirective: DIRECTIVE_FIELDS,
} as const;

/**
 * The body of Hindsight's CreateMentalModelRequest, UpdateMentalModelRequest, CreateDirectiveRequest or
 * UpdateDirectiveRequest that puts a manifest entry whole: its fields, those it leaves out as Hindsight's
 * defaults (an update changes only the fields it names, so a replacement names them all, as an import's
 * replacement leaves nothing of the old entry), keys Hindsight's requests do not name left out.
 */
export function hindsightRequest(request: keyof typeof REQUEST_FIELDS, entry: Entry): Entry {
  const filled = withDefaults(request.endsWith("MentalModel") ? "mentalModel" : "directive", entry);
  return Object.fromEntries(REQUEST_FIELDS[request].filter((field) => filled[field] !== undefined).map((field) => [field, filled[field]]));
}

/**
 * How Hindsight holds an entry, for comparisons: a manifest entry about to be imported and an entry
 * Hindsight reported compare equal exactly when the import would leave it as it is.
 */
export const hindsightShape = {
  mentalModel: (entry: Entry): Entry => {
    const held = reportedMentalModel(withDefaults("mentalModel", entry));
    return held.trigger === undefined ? held : { ...held, trigger: withoutNulls(held.trigger) };
  },
  directive: (entry: Entry): Entry => reportedDirective(withDefaults("directive", entry)),
};
