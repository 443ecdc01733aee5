import { z } from "zod";
import type { FieldError } from "@/lib/contracts/errors";
import { formatPath, issuesToFieldErrors, errorMap as plainErrorMap } from "@/lib/contracts/validation";

/*
 * The Hindsight bank-template manifest (CONTRACT §7).
 *
 * Every object is loose: a manifest travels from a marketplace to Hindsight through us, so keys we do not
 * know are passed on untouched and only reported as warnings. Parsing never fills in defaults either; the
 * `default` in each field's metadata documents what Hindsight assumes when the field is absent.
 */

// ---------------------------------------------------------------------------------------------------------
// Field builders. Messages live on the schemas so they read the same whichever parser reports them.

type IssueOf = Parameters<z.core.$ZodErrorMap>[0];

/** Plain-language message for a value outside a fixed set; a missing value falls through to "is required". */
function oneOf(values: readonly string[]) {
  const text = values.length === 1 ? `must be "${values[0]}"` : `must be one of ${values.join(", ")}`;
  return (issue: IssueOf) => (issue.input === undefined ? undefined : text);
}

const integerMessage = (issue: IssueOf) => (issue.code === "invalid_type" && issue.input !== undefined ? "must be an integer" : undefined);

/** A JSON-schema `integer`, optionally bounded. */
function integer(min?: number, max?: number) {
  let schema = z.int({ error: integerMessage });
  if (min !== undefined) schema = schema.min(min, `must be at least ${min}`);
  if (max !== undefined) schema = schema.max(max, `must be at most ${max}`);
  return schema;
}

function choice<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: oneOf(values) });
}

/** Whitespace-only counts as blank; the pattern also documents the rule in OpenAPI. */
const nonBlank = () => z.string().regex(/\S/, "must not be blank");

/** zod calls a wrongly typed record "a record"; in JSON terms it is an object. */
const objectMessage = (issue: IssueOf) => (issue.code === "invalid_type" && issue.input !== undefined ? "must be an object" : undefined);

/** A JSON object keyed by free-form names, each value checked by `value`. */
const objectOf = <T extends z.ZodType>(value: T) => z.record(z.string(), value, { error: objectMessage });

/** A JSON object whose keys are free-form (the schema's `additionalProperties: true` dicts). */
const freeObject = () => objectOf(z.unknown());

/** An optional field that also accepts null (the schema's `anyOf [T, null]`, default null). */
const nullable = <T extends z.ZodType>(schema: T, description: string) => schema.nullable().optional().meta({ description, default: null });

/** An optional field with a non-null default that Hindsight applies, not us. */
const withDefault = <T extends z.ZodType>(schema: T, description: string, fallback: unknown) =>
  schema.optional().meta({ description, default: fallback });

// ---------------------------------------------------------------------------------------------------------
// Tag groups: a recursive boolean expression over tags.

const TAG_MATCH = ["any", "all", "any_strict", "all_strict", "exact"] as const;

const TagGroupLeaf = z
  .looseObject({
    tags: z.array(z.string()).meta({ description: "Tags this filter matches on." }),
    match: withDefault(choice(TAG_MATCH), "How the tags are matched.", "any_strict"),
  })
  .meta({ id: "TagGroupLeaf", description: "A leaf filter: memories matched by a list of tags." });

type TagGroupSchema = z.ZodUnion<readonly [typeof TagGroupLeaf, typeof TagGroupAnd, typeof TagGroupOr, typeof TagGroupNot]>;

const TagGroupAnd = z
  .looseObject({
    get and(): z.ZodArray<TagGroupSchema> {
      return z.array(TagGroup).meta({ description: "Every child filter must match." });
    },
  })
  .meta({ id: "TagGroupAnd", description: "All child filters must match." });

const TagGroupOr = z
  .looseObject({
    get or(): z.ZodArray<TagGroupSchema> {
      return z.array(TagGroup).meta({ description: "At least one child filter must match." });
    },
  })
  .meta({ id: "TagGroupOr", description: "At least one child filter must match." });

const TagGroupNot = z
  .looseObject({
    get not(): TagGroupSchema {
      return TagGroup;
    },
  })
  .meta({ id: "TagGroupNot", description: "The child filter must not match." });

const TagGroup: TagGroupSchema = z
  .union([TagGroupLeaf, TagGroupAnd, TagGroupOr, TagGroupNot], {
    error: (issue) => (issue.input === undefined ? undefined : "must be a tag group: an object with one of tags, and, or, not"),
  })
  .meta({ id: "TagGroup", description: "A tag filter: a leaf, or an and / or / not of tag filters." });

// ---------------------------------------------------------------------------------------------------------
// Mental models

export const MentalModelTrigger = z
  .looseObject({
    mode: withDefault(
      choice(["full", "delta"]),
      "Refresh mode: 'full' regenerates the content, 'delta' edits the existing content in place.",
      "full",
    ),
    refresh_after_consolidation: withDefault(z.boolean(), "Refresh after observation consolidation; exclusive with refresh_cron.", false),
    refresh_cron: nullable(z.string(), "Five-field cron expression in UTC for scheduled refreshes; null for none."),
    min_refresh_interval_seconds: nullable(
      integer(0),
      "Least seconds between two automatic refreshes; null falls back to the bank setting.",
    ),
    fact_types: nullable(z.array(choice(["world", "experience", "observation"])), "Fact types retrieved while refreshing; null means all."),
    exclude_mental_models: withDefault(z.boolean(), "Leave every mental model out of the refresh.", false),
    exclude_mental_model_ids: nullable(z.array(z.string()), "Mental models, by id, left out of the refresh."),
    tags_match: nullable(choice(TAG_MATCH), "How the model's tags filter memories during refresh."),
    tag_groups: nullable(z.array(TagGroup), "Boolean tag expressions used instead of the model's own tags."),
    include_chunks: nullable(z.boolean(), "Whether the refresh's recall returns chunks; null uses the bank default."),
    recall_max_tokens: nullable(integer(), "Token budget for recalled facts; null uses the bank default."),
    recall_chunks_max_tokens: nullable(integer(), "Token budget for recalled chunks; null uses the bank default."),
    response_schema: nullable(freeObject(), "JSON Schema for a structured result stored with each refresh."),
    keep_trace: withDefault(z.boolean(), "Keep a trace of the latest refresh.", false),
  })
  .meta({ id: "MentalModelTrigger", description: "When and how a mental model is refreshed." });

export const BankTemplateMentalModel = z
  .looseObject({
    id: z.string().meta({ description: "Unique id of the model; the match key on import.", example: "team-overview" }),
    name: nonBlank().meta({ description: "Human-readable name." }),
    source_query: nonBlank().meta({ description: "The query whose answer becomes the model's content." }),
    tags: withDefault(z.array(z.string()), "Tags scoping the model's visibility.", []),
    max_tokens: withDefault(integer(256, 8192), "Token limit of the generated content (256-8192).", 2048),
    trigger: withDefault(MentalModelTrigger, "Refresh settings.", {}),
  })
  .meta({ id: "BankTemplateMentalModel", description: "A mental model created or updated by the template." });

// ---------------------------------------------------------------------------------------------------------
// Directives

export const BankTemplateDirective = z
  .looseObject({
    name: nonBlank().meta({ description: "Name of the directive; the match key on import." }),
    content: nonBlank().meta({ description: "Text injected into prompts." }),
    priority: withDefault(integer(), "Directives with a higher priority are injected first.", 0),
    is_active: withDefault(z.boolean(), "Whether the directive is in effect.", true),
    tags: withDefault(z.array(z.string()), "Tags for filtering.", []),
  })
  .meta({ id: "BankTemplateDirective", description: "A directive created or updated by the template." });

// ---------------------------------------------------------------------------------------------------------
// Entity labels: a controlled vocabulary, with map-typed groups nesting fields recursively.

const LabelValue = z
  .looseObject({
    value: z.string().meta({ description: "The allowed value." }),
    description: withDefault(z.string(), "What the value means.", ""),
  })
  .meta({ id: "LabelValue", description: "One allowed value of a label group." });

type MapFieldSchema = z.ZodObject<
  {
    type: z.ZodOptional<z.ZodEnum<{ text: "text"; value: "value"; "multi-values": "multi-values"; map: "map" }>>;
    description: z.ZodOptional<z.ZodString>;
    values: z.ZodOptional<z.ZodArray<typeof LabelValue>>;
    fields: z.ZodOptional<z.ZodRecord<z.ZodString, MapFieldSchema>>;
  },
  z.core.$loose
>;

export const MapField: MapFieldSchema = z
  .looseObject({
    type: withDefault(choice(["text", "value", "multi-values", "map"]), "Kind of field; 'map' nests fields.", "text"),
    description: withDefault(z.string(), "What the field holds.", ""),
    values: withDefault(z.array(LabelValue), "Allowed values.", []),
    get fields() {
      return withDefault(objectOf(MapField), "Nested fields of a 'map' field, by name.", {});
    },
  })
  .meta({ id: "MapField", description: "A field of a map-typed label group." });

export const LabelGroup = z
  .looseObject({
    key: z.string().meta({ description: "Name of the label dimension." }),
    description: withDefault(z.string(), "What the dimension captures.", ""),
    type: withDefault(choice(["value", "multi-values", "text", "map"]), "Kind of values the group holds.", "value"),
    optional: withDefault(z.boolean(), "Whether an entity may leave the label out.", true),
    tag: withDefault(z.boolean(), "Whether the label is also applied as a tag.", false),
    values: withDefault(z.array(LabelValue), "Allowed values.", []),
    fields: withDefault(objectOf(MapField), "Fields of a 'map' group, by name.", {}),
  })
  .meta({ id: "LabelGroup", description: "A label dimension with its type and allowed values." });

// ---------------------------------------------------------------------------------------------------------
// The bank config section

const RETAIN_EXTRACTION_MODES = ["concise", "verbose", "custom", "verbatim", "chunks"] as const;

const disposition = (trait: string) => nullable(integer(1, 5), `${trait} trait, 1-5.`);

const bankFields = {
  reflect_mission: nullable(z.string(), "Mission given to reflect operations."),
  retain_mission: nullable(z.string(), "Steers what retain extracts."),
  retain_extraction_mode: nullable(choice(RETAIN_EXTRACTION_MODES), "Fact extraction mode; 'concise' when unset."),
  retain_custom_instructions: nullable(z.string(), "Extraction prompt; only with retain_extraction_mode 'custom'."),
  retain_chunk_size: nullable(integer(), "Target largest number of characters per chunk."),
  retain_structured_chunk_size: nullable(
    integer(),
    "Largest JSONL line or conversation turn kept whole, in characters; retain_chunk_size when unset.",
  ),
  enable_observations: nullable(z.boolean(), "Whether observations are consolidated."),
  observations_mission: nullable(z.string(), "Steers what observations synthesise."),
  enable_temporal_retrieval: nullable(z.boolean(), "Whether recall uses the temporal arm."),
  enable_graph_retrieval: nullable(z.boolean(), "Whether recall uses the entity graph arm."),
  enable_reranking: nullable(z.boolean(), "Whether recall reranks with a cross-encoder."),
  disposition_skepticism: disposition("Skepticism"),
  disposition_literalism: disposition("Literalism"),
  disposition_empathy: disposition("Empathy"),
  entity_labels: nullable(z.array(LabelGroup), "Controlled vocabulary of entity labels."),
  entities_allow_free_form: nullable(z.boolean(), "Whether entities may fall outside the label vocabulary."),
  retain_default_strategy: nullable(z.string(), "Name of the default entry of retain_strategies."),
  retain_strategies: nullable(freeObject(), "Retain strategies by name, each a config object."),
  retain_chunk_batch_size: nullable(integer(), "Most chunks per streaming batch; 0 disables batching."),
  mcp_enabled_tools: nullable(z.array(z.string()), "MCP tools allowed for the bank; null allows all."),
  consolidation_llm_batch_size: nullable(integer(), "LLM batch size of observation consolidation."),
  consolidation_source_facts_max_tokens: nullable(integer(), "Token budget of source facts per consolidation batch."),
  consolidation_source_facts_max_tokens_per_observation: nullable(integer(), "Token budget of source facts per observation."),
  max_observations_per_scope: nullable(integer(), "Most observations kept per consolidation scope."),
  observation_scope_limits: nullable(
    z.array(freeObject()),
    "Per-scope overrides of max_observations_per_scope, e.g. {scope: [tag globs], limit}; the first match wins.",
  ),
  reflect_source_facts_max_tokens: nullable(integer(), "Token budget of source facts per reflect call."),
  mental_model_min_refresh_interval_seconds: nullable(
    integer(0),
    "Least seconds between two automatic refreshes of one mental model; 0 means no floor.",
  ),
  llm_gemini_safety_settings: nullable(z.array(z.unknown()), "Gemini / Vertex AI safety filter settings."),
  recall_budget_function: nullable(z.string(), "How recall budgets are mapped: 'fixed' or 'adaptive'."),
  recall_budget_fixed_low: nullable(integer(), "Thinking budget for budget=low with the fixed function."),
  recall_budget_fixed_mid: nullable(integer(), "Thinking budget for budget=mid with the fixed function."),
  recall_budget_fixed_high: nullable(integer(), "Thinking budget for budget=high with the fixed function."),
  recall_budget_adaptive_low: nullable(z.number(), "Share of max_tokens for budget=low with the adaptive function."),
  recall_budget_adaptive_mid: nullable(z.number(), "Share of max_tokens for budget=mid with the adaptive function."),
  recall_budget_adaptive_high: nullable(z.number(), "Share of max_tokens for budget=high with the adaptive function."),
  recall_budget_min: nullable(integer(), "Floor of the adaptive function."),
  recall_budget_max: nullable(integer(), "Ceiling of the adaptive function."),
  audit_log_enabled: nullable(z.boolean(), "Whether the bank keeps an audit log."),
  store_document_text: nullable(z.boolean(), "Whether raw source text is stored; false keeps only derived facts."),
  enable_auto_consolidation: nullable(z.boolean(), "Whether observations are consolidated after each retain."),
  consolidation_max_memories_per_round: nullable(integer(), "Most memory units in one consolidation round."),
  consolidation_llm_parallelism: nullable(integer(), "Consolidation LLM batches run at once."),
  recall_include_chunks: nullable(z.boolean(), "Whether recall returns raw chunks."),
  recall_max_tokens: nullable(integer(), "Token budget of recall results."),
  recall_chunks_max_tokens: nullable(integer(), "Token budget of raw chunks in recall results."),
  memory_defense: nullable(freeObject(), "Memory Defense policy of the bank."),
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Custom instructions only mean something in custom mode. An invalid mode already has its own error,
 * so the rule is reported only against a valid (or absent) mode, keeping one entry per problem.
 */
function checkCustomInstructions(bank: Record<string, unknown>, ctx: z.RefinementCtx) {
  const mode = bank.retain_extraction_mode;
  const modeIsValid = mode == null || (RETAIN_EXTRACTION_MODES as readonly unknown[]).includes(mode);
  if (typeof bank.retain_custom_instructions === "string" && mode !== "custom" && modeIsValid) {
    ctx.addIssue({
      code: "custom",
      path: ["retain_custom_instructions"],
      message: 'needs retain_extraction_mode "custom"',
      input: bank.retain_custom_instructions,
    });
  }
}

export const BankTemplateConfig = z
  .looseObject(bankFields)
  // `when` lets the rule run alongside other fields' errors, so every problem is reported at once.
  .superRefine((bank, ctx) => checkCustomInstructions(bank, ctx), { when: (payload) => isRecord(payload.value) })
  .meta({
    id: "BankTemplateConfig",
    description: "Per-bank configuration overrides. Credentials (API keys, base URLs) are never part of a template.",
  });

// ---------------------------------------------------------------------------------------------------------
// Uniqueness of match keys

/** Reports each repeat of `key` at the later element, as CONTRACT §4 asks. Blank or mistyped keys are skipped. */
function uniqueBy(list: string, key: string) {
  return (items: unknown[], ctx: z.RefinementCtx) => {
    const firstAt = new Map<string, number>();
    items.forEach((item, index) => {
      const value = isRecord(item) ? item[key] : undefined;
      if (typeof value !== "string" || value.trim() === "") return;
      const first = firstAt.get(value);
      if (first === undefined) firstAt.set(value, index);
      else ctx.addIssue({ code: "custom", path: [index, key], input: value, message: `repeats ${list}[${first}]` });
    });
  };
}

// ---------------------------------------------------------------------------------------------------------
// List sizes (CONTRACT §15): what one import may carry, on every path a manifest enters by.

/**
 * The most entries a manifest's lists may hold: `maxItems` in OpenAPI, "must be at most 1000 items"
 * at the list. zod refuses a longer list before checking its entries, so an oversized one costs little.
 */
export const MANIFEST_LIMITS = { mentalModels: 1_000, directives: 1_000 } as const;

const mentalModelList = z
  .array(BankTemplateMentalModel)
  .max(MANIFEST_LIMITS.mentalModels)
  .superRefine(uniqueBy("mental_models", "id"), { when: (payload) => Array.isArray(payload.value) });

const directiveList = z
  .array(BankTemplateDirective)
  .max(MANIFEST_LIMITS.directives)
  .superRefine(uniqueBy("directives", "name"), { when: (payload) => Array.isArray(payload.value) });

// ---------------------------------------------------------------------------------------------------------
// The manifest

export const MANIFEST_VERSION = "1";

export const BankTemplateManifest = z
  .looseObject({
    version: z
      .literal(MANIFEST_VERSION, { error: oneOf([MANIFEST_VERSION]) })
      .meta({ description: 'Manifest schema version; must be "1".' }),
    bank: nullable(BankTemplateConfig, "Bank configuration to apply; absent or null leaves the config as it is."),
    mental_models: nullable(mentalModelList, "Mental models to create or update, matched by id; absent or null leaves them as they are."),
    directives: nullable(directiveList, "Directives to create or update, matched by name; absent or null leaves them as they are."),
  })
  .meta({
    id: "BankTemplateManifest",
    description: "A Hindsight bank-template manifest. Keys the schema does not name are kept as they are, with a warning.",
    examples: [
      {
        version: "1",
        bank: { retain_mission: "Keep decisions and their reasons.", disposition_skepticism: 4 },
        mental_models: [{ id: "open-questions", name: "Open questions", source_query: "What is still open?" }],
        directives: [{ name: "Cite sources", content: "Name the document each fact comes from.", priority: 5 }],
      },
    ],
  });

export type BankTemplateManifest = z.output<typeof BankTemplateManifest>;

/**
 * A bank's export: a manifest with all four keys. A bank may hold more entries than one manifest may carry
 * (several templates applied to it), and its export still lists them all; such an export must be split to
 * be saved as templates (the template write answers 422 at the list).
 */
export const BankExport = BankTemplateManifest.extend({
  bank: BankTemplateConfig.optional().meta({
    description:
      "The bank's config overrides. Absent only with the remote store when Hindsight would not show the bank's config (its bank-config API turned off; the bank answers `config_unreadable`): the manifest then leaves config alone rather than claim the bank has none.",
  }),
  mental_models: z.array(BankTemplateMentalModel),
  directives: z.array(BankTemplateDirective),
}).meta({
  id: "BankExport",
  description:
    "A bank as a manifest that, imported into a new bank, reproduces it. Its lists may exceed a manifest's 1,000 entries " +
    "when several templates were applied to the bank.",
});

export type BankExport = z.output<typeof BankExport>;

// ---------------------------------------------------------------------------------------------------------
// Checking

export interface ManifestReport {
  valid: boolean;
  errors: FieldError[];
  warnings: FieldError[];
}

const UNKNOWN_KEY = "is not a field of the bank-template schema; it is kept as is";

/** Plain-language wording for the type errors zod words for programmers. */
const errorMap: z.core.$ZodErrorMap = (issue) => {
  const missing = issue.input === undefined && (issue.code === "invalid_type" || issue.code === "invalid_value");
  if (missing) return "is required";
  // Everything else in the API's shared wording, never zod's own ("Too small: expected …").
  if (issue.code !== "invalid_type") return plainErrorMap(issue);
  const expected = String(issue.expected);
  if (expected === "int") return "must be an integer";
  if (expected === "record") return "must be an object";
  return `must be ${/^[aeiou]/.test(expected) ? "an" : "a"} ${expected}`;
};

/** Whether an object value uses one of an object schema's fields: how a tag group says which kind it is. */
const sharesKey = (option: z.ZodType, value: unknown) =>
  option instanceof z.ZodObject && isRecord(value) && Object.keys(value).some((key) => Object.hasOwn(option.shape, key));

/** The union option a value belongs to: the one it parses as, else the one sharing a key with it. */
function pickOption(options: readonly z.ZodType[], value: unknown): z.ZodType | undefined {
  const parsed = options.find((option) => option.safeParse(value).success);
  return parsed ?? options.find((option) => sharesKey(option, value));
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const part of path) {
    value = isRecord(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[part] : undefined;
  }
  return value;
}

/**
 * zod reports a failed union once, at the union. When the value names the kind it means ({and: ...}), point
 * at the problem inside that kind instead (`tag_groups[0].and[1].tags`). TagGroup is the manifest's only union.
 */
function expandUnionIssue(issue: z.core.$ZodIssue, root: unknown): z.core.$ZodIssue[] {
  if (issue.code !== "invalid_union") return [issue];
  const value = valueAt(root, issue.path);
  const index = TagGroup.options.findIndex((option) => sharesKey(option, value));
  const inner = index >= 0 ? issue.errors[index] : undefined;
  if (!inner?.length) return [issue];
  return inner.flatMap((nested) => expandUnionIssue({ ...nested, path: [...issue.path, ...nested.path] }, root));
}

/** Walks the value alongside the schema and reports every key an object schema does not name. */
function collectUnknownKeys(schema: z.ZodType, value: unknown, path: PropertyKey[], out: FieldError[]): void {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodLazy) {
    collectUnknownKeys(schema.unwrap() as z.ZodType, value, path, out);
  } else if (schema instanceof z.ZodObject && isRecord(value)) {
    const shape = schema.shape as Record<string, z.ZodType>;
    for (const [key, child] of Object.entries(value)) {
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (field) collectUnknownKeys(field, child, [...path, key], out);
      else out.push({ path: formatPath([...path, key]), message: UNKNOWN_KEY });
    }
  } else if (schema instanceof z.ZodArray && Array.isArray(value)) {
    for (const [index, item] of value.entries()) collectUnknownKeys(schema.element as z.ZodType, item, [...path, index], out);
  } else if (schema instanceof z.ZodRecord && isRecord(value)) {
    for (const [key, child] of Object.entries(value)) {
      collectUnknownKeys(schema.valueType as z.ZodType, child, [...path, key], out);
    }
  } else if (schema instanceof z.ZodUnion) {
    const option = pickOption(schema.options as readonly z.ZodType[], value);
    if (option) collectUnknownKeys(option, value, path, out);
  }
}

/**
 * Validates a manifest against the schema and CONTRACT §7's rules: one error per problem and one warning per
 * unknown key, every path starting with `pathPrefix` (pass "" for paths from the manifest's root).
 */
export function checkManifest(manifest: unknown, pathPrefix = "manifest"): ManifestReport {
  const prefix: PropertyKey[] = pathPrefix ? [pathPrefix] : [];
  if (!isRecord(manifest)) {
    return { valid: false, errors: [{ path: pathPrefix || "(body)", message: "must be an object" }], warnings: [] };
  }
  const result = BankTemplateManifest.safeParse(manifest, { error: errorMap });
  const issues = result.success ? [] : result.error.issues.flatMap((issue) => expandUnionIssue(issue, manifest));
  const errors = issuesToFieldErrors(issues, prefix);
  const warnings: FieldError[] = [];
  collectUnknownKeys(BankTemplateManifest, manifest, prefix, warnings);
  return { valid: errors.length === 0, errors, warnings };
}

// ---------------------------------------------------------------------------------------------------------
// Applying

export interface ManifestSections {
  /** The bank config section; null when absent or null. */
  bank: Record<string, unknown> | null;
  /** undefined when the manifest leaves mental models alone (absent or null); [] is an explicit empty list. */
  mentalModels: Array<{ id: string } & Record<string, unknown>> | undefined;
  /** undefined when the manifest leaves directives alone (absent or null); [] is an explicit empty list. */
  directives: Array<{ name: string } & Record<string, unknown>> | undefined;
}

/** The parts of a parsed manifest that a bank import applies. */
export function manifestSections(manifest: BankTemplateManifest): ManifestSections {
  return {
    bank: manifest.bank ?? null,
    mentalModels: manifest.mental_models ?? undefined,
    directives: manifest.directives ?? undefined,
  };
}
