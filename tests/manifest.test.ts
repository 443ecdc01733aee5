import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  BankTemplateConfig,
  BankTemplateDirective,
  BankTemplateManifest,
  BankTemplateMentalModel,
  checkManifest,
  LabelGroup,
  MapField,
  MentalModelTrigger,
  manifestSections,
} from "@/lib/contracts/templates/manifest";

const UNKNOWN = "is not a field of the bank-template schema; it is kept as is";

/** A manifest that sets every field of every section (checked against the schemas below). */
function fullManifest() {
  return {
    version: "1",
    bank: {
      reflect_mission: "Help the support team remember customers.",
      retain_mission: "Keep issues, fixes and how the customer felt.",
      retain_extraction_mode: "custom",
      retain_custom_instructions: "Extract one fact per customer issue.",
      retain_chunk_size: 3000,
      retain_structured_chunk_size: 6000,
      enable_observations: true,
      observations_mission: "Summarise recurring problems.",
      enable_temporal_retrieval: true,
      enable_graph_retrieval: false,
      enable_reranking: true,
      disposition_skepticism: 1,
      disposition_literalism: 3,
      disposition_empathy: 5,
      entity_labels: [
        {
          key: "product",
          description: "Which product the entity concerns",
          type: "map",
          optional: false,
          tag: true,
          values: [{ value: "api", description: "The public API" }],
          fields: {
            plan: {
              type: "map",
              description: "Subscription",
              values: [{ value: "pro", description: "" }],
              fields: { seats: { type: "text", description: "Seat count", values: [], fields: {} } },
            },
          },
        },
      ],
      entities_allow_free_form: false,
      retain_default_strategy: "support",
      retain_strategies: { support: { retain_chunk_size: 1000, anything: ["goes"] } },
      retain_chunk_batch_size: 0,
      mcp_enabled_tools: ["recall", "reflect"],
      consolidation_llm_batch_size: 8,
      consolidation_source_facts_max_tokens: 4000,
      consolidation_source_facts_max_tokens_per_observation: 500,
      max_observations_per_scope: 50,
      observation_scope_limits: [{ scope: ["run_*", "shared"], limit: 1 }],
      reflect_source_facts_max_tokens: 6000,
      mental_model_min_refresh_interval_seconds: 0,
      llm_gemini_safety_settings: [{ category: "HARM_CATEGORY_HATE_SPEECH", threshold: "BLOCK_NONE" }, "raw"],
      recall_budget_function: "adaptive",
      recall_budget_fixed_low: 100,
      recall_budget_fixed_mid: 300,
      recall_budget_fixed_high: 900,
      recall_budget_adaptive_low: 0.1,
      recall_budget_adaptive_mid: 0.25,
      recall_budget_adaptive_high: 0.5,
      recall_budget_min: 50,
      recall_budget_max: 2000,
      audit_log_enabled: true,
      store_document_text: false,
      enable_auto_consolidation: true,
      consolidation_max_memories_per_round: 200,
      consolidation_llm_parallelism: 2,
      recall_include_chunks: true,
      recall_max_tokens: 4096,
      recall_chunks_max_tokens: 1024,
      memory_defense: { mode: "strict", rules: [{ any: "shape" }] },
    },
    mental_models: [
      {
        id: "sentiment",
        name: "Customer sentiment",
        source_query: "How do customers feel lately?",
        tags: ["support"],
        max_tokens: 4096,
        trigger: {
          mode: "delta",
          refresh_after_consolidation: false,
          refresh_cron: "0 3 * * *",
          min_refresh_interval_seconds: 600,
          fact_types: ["world", "experience", "observation"],
          exclude_mental_models: false,
          exclude_mental_model_ids: ["other"],
          tags_match: "all_strict",
          tag_groups: [
            { tags: ["vip"], match: "exact" },
            { and: [{ tags: ["a"] }, { or: [{ tags: ["b"], match: "any" }, { not: { tags: ["c"] } }] }] },
          ],
          include_chunks: true,
          recall_max_tokens: 2048,
          recall_chunks_max_tokens: 512,
          response_schema: { type: "object", properties: { mood: { type: "string" } } },
          keep_trace: true,
        },
      },
      { id: "issues", name: "Open issues", source_query: "Which issues are unresolved?" },
    ],
    directives: [
      { name: "Be kind", content: "Answer with empathy.", priority: 10, is_active: true, tags: ["tone"] },
      { name: "Cite", content: "Name the ticket each fact comes from." },
    ],
  };
}

type Json = Record<string, any>;

/** A valid manifest with one change applied. */
function variant(change: (m: Json) => void): Json {
  const manifest: Json = fullManifest();
  change(manifest);
  return manifest;
}

const paths = (errors: { path: string }[]) => errors.map((e) => e.path);
const keysOf = (schema: z.ZodObject) => Object.keys(schema.shape).sort();

describe("a valid manifest", () => {
  it("sets every field of every section and passes without errors or warnings", () => {
    const manifest = fullManifest();
    expect(checkManifest(manifest)).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it("covers every field the schemas name", () => {
    const m = fullManifest();
    const label = m.bank.entity_labels[0]!;
    expect(Object.keys(m).sort()).toEqual(keysOf(BankTemplateManifest));
    expect(Object.keys(m.bank).sort()).toEqual(keysOf(BankTemplateConfig));
    expect(Object.keys(m.mental_models[0]!).sort()).toEqual(keysOf(BankTemplateMentalModel));
    expect(Object.keys(m.mental_models[0]!.trigger!).sort()).toEqual(keysOf(MentalModelTrigger));
    expect(Object.keys(m.directives[0]!).sort()).toEqual(keysOf(BankTemplateDirective));
    expect(Object.keys(label).sort()).toEqual(keysOf(LabelGroup));
    expect(Object.keys(label.fields.plan).sort()).toEqual(keysOf(MapField));
    expect(Object.keys(BankTemplateConfig.shape)).toHaveLength(46);
  });

  it("parses to exactly the input: nothing dropped, no defaults filled in", () => {
    const manifest = fullManifest();
    expect(BankTemplateManifest.parse(manifest)).toStrictEqual(manifest);
    expect(BankTemplateManifest.parse({ version: "1" })).toStrictEqual({ version: "1" });
  });

  it.each([
    ["only a version", { version: "1" }],
    ["null sections", { version: "1", bank: null, mental_models: null, directives: null }],
    ["empty sections", { version: "1", bank: {}, mental_models: [], directives: [] }],
    ["every bank field null", { version: "1", bank: Object.fromEntries(keysOf(BankTemplateConfig).map((k) => [k, null])) }],
    [
      "the bounds of the ranges",
      variant((m) => {
        m.mental_models[0].max_tokens = 256;
        m.mental_models[1].max_tokens = 8192;
        Object.assign(m.bank, { disposition_skepticism: 5, disposition_literalism: 1 });
      }),
    ],
    [
      "custom instructions set to null in another mode",
      variant((m) => {
        Object.assign(m.bank, { retain_extraction_mode: "verbatim", retain_custom_instructions: null });
      }),
    ],
  ])("accepts %s", (_, manifest) => {
    expect(checkManifest(manifest)).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it("accepts each extraction mode", () => {
    for (const mode of ["concise", "verbose", "custom", "verbatim", "chunks"]) {
      expect(checkManifest({ version: "1", bank: { retain_extraction_mode: mode } }).valid).toBe(true);
    }
  });
});

describe("unknown keys", () => {
  const manifest = variant((m) => {
    m.x_top = { nested: true };
    m.bank.x_bank = 1;
    m.bank.entity_labels[0].x_label = "l";
    m.bank.entity_labels[0].values[0].x_value = null;
    m.bank.entity_labels[0].fields.plan.x_field = [];
    m.bank.entity_labels[0].fields.plan.fields.seats.x_deep = 2;
    m.mental_models[1].x_model = "m";
    m.mental_models[0].trigger.x_trigger = false;
    m.mental_models[0].trigger.tag_groups[0].x_leaf = 1;
    m.mental_models[0].trigger.tag_groups[1].x_and = 1;
    m.mental_models[0].trigger.tag_groups[1].and[1].or[1].not.x_not_child = 1;
    m.directives[1].x_directive = { a: 1 };
  });

  it("are kept as they are at every level", () => {
    expect(BankTemplateManifest.parse(manifest)).toStrictEqual(manifest);
  });

  it("are reported as warnings at their own paths, not as errors", () => {
    const report = checkManifest(manifest);
    expect(report.valid).toBe(true);
    expect(report.errors).toEqual([]);
    expect(paths(report.warnings).sort()).toEqual(
      [
        "manifest.x_top",
        "manifest.bank.x_bank",
        "manifest.bank.entity_labels[0].x_label",
        "manifest.bank.entity_labels[0].values[0].x_value",
        "manifest.bank.entity_labels[0].fields.plan.x_field",
        "manifest.bank.entity_labels[0].fields.plan.fields.seats.x_deep",
        "manifest.mental_models[1].x_model",
        "manifest.mental_models[0].trigger.x_trigger",
        "manifest.mental_models[0].trigger.tag_groups[0].x_leaf",
        "manifest.mental_models[0].trigger.tag_groups[1].x_and",
        "manifest.mental_models[0].trigger.tag_groups[1].and[1].or[1].not.x_not_child",
        "manifest.directives[1].x_directive",
      ].sort(),
    );
    expect(report.warnings.every((w) => w.message === UNKNOWN)).toBe(true);
  });

  it("are not reported inside the schema's free-form objects", () => {
    // retain_strategies, memory_defense, observation_scope_limits items and response_schema take any keys.
    expect(checkManifest(fullManifest()).warnings).toEqual([]);
  });

  it("are still reported next to errors", () => {
    const report = checkManifest({ version: "2", colour: "red", mental_models: [{ id: "a", shade: 1 }] });
    expect(paths(report.warnings)).toEqual(["manifest.colour", "manifest.mental_models[0].shade"]);
    expect(paths(report.errors)).toEqual(["manifest.version", "manifest.mental_models[0].name", "manifest.mental_models[0].source_query"]);
  });
});

describe("semantic rules", () => {
  it.each([
    ["version other than 1", (m: Json) => (m.version = "2"), "manifest.version"],
    ["version as a number", (m: Json) => (m.version = 1), "manifest.version"],
    ["version missing", (m: Json) => delete m.version, "manifest.version"],
    ["unknown extraction mode", (m: Json) => (m.bank.retain_extraction_mode = "fancy"), "manifest.bank.retain_extraction_mode"],
    [
      "custom instructions in concise mode",
      (m: Json) => (m.bank.retain_extraction_mode = "concise"),
      "manifest.bank.retain_custom_instructions",
    ],
    ["custom instructions without a mode", (m: Json) => delete m.bank.retain_extraction_mode, "manifest.bank.retain_custom_instructions"],
    [
      "empty custom instructions in verbose mode",
      (m: Json) => Object.assign(m.bank, { retain_extraction_mode: "verbose", retain_custom_instructions: "" }),
      "manifest.bank.retain_custom_instructions",
    ],
    ["blank mental-model name", (m: Json) => (m.mental_models[1].name = "   "), "manifest.mental_models[1].name"],
    ["empty mental-model name", (m: Json) => (m.mental_models[0].name = ""), "manifest.mental_models[0].name"],
    ["blank source_query", (m: Json) => (m.mental_models[1].source_query = "\t\n"), "manifest.mental_models[1].source_query"],
    ["blank directive name", (m: Json) => (m.directives[1].name = " "), "manifest.directives[1].name"],
    ["blank directive content", (m: Json) => (m.directives[0].content = "\n"), "manifest.directives[0].content"],
    [
      "duplicate mental-model id",
      (m: Json) => m.mental_models.push({ id: "sentiment", name: "Again", source_query: "Again?" }),
      "manifest.mental_models[2].id",
    ],
    ["duplicate directive name", (m: Json) => m.directives.push({ name: "Be kind", content: "Twice." }), "manifest.directives[2].name"],
    ["max_tokens below 256", (m: Json) => (m.mental_models[0].max_tokens = 255), "manifest.mental_models[0].max_tokens"],
    ["max_tokens above 8192", (m: Json) => (m.mental_models[1].max_tokens = 8193), "manifest.mental_models[1].max_tokens"],
    ["skepticism 0", (m: Json) => (m.bank.disposition_skepticism = 0), "manifest.bank.disposition_skepticism"],
    ["literalism 6", (m: Json) => (m.bank.disposition_literalism = 6), "manifest.bank.disposition_literalism"],
    ["empathy 2.5", (m: Json) => (m.bank.disposition_empathy = 2.5), "manifest.bank.disposition_empathy"],
    [
      "negative bank refresh floor",
      (m: Json) => (m.bank.mental_model_min_refresh_interval_seconds = -1),
      "manifest.bank.mental_model_min_refresh_interval_seconds",
    ],
    [
      "negative trigger refresh floor",
      (m: Json) => (m.mental_models[0].trigger.min_refresh_interval_seconds = -1),
      "manifest.mental_models[0].trigger.min_refresh_interval_seconds",
    ],
    ["unknown trigger mode", (m: Json) => (m.mental_models[0].trigger.mode = "partial"), "manifest.mental_models[0].trigger.mode"],
    [
      "unknown fact type",
      (m: Json) => (m.mental_models[0].trigger.fact_types = ["world", "opinion"]),
      "manifest.mental_models[0].trigger.fact_types[1]",
    ],
    ["unknown tags_match", (m: Json) => (m.mental_models[0].trigger.tags_match = "some"), "manifest.mental_models[0].trigger.tags_match"],
    [
      "unknown leaf match",
      (m: Json) => (m.mental_models[0].trigger.tag_groups[0].match = "sometimes"),
      "manifest.mental_models[0].trigger.tag_groups[0].match",
    ],
    ["unknown label group type", (m: Json) => (m.bank.entity_labels[0].type = "enum"), "manifest.bank.entity_labels[0].type"],
    [
      "unknown map field type",
      (m: Json) => (m.bank.entity_labels[0].fields.plan.fields.seats.type = "number"),
      "manifest.bank.entity_labels[0].fields.plan.fields.seats.type",
    ],
  ])("reports %s at exactly its path", (_, change, path) => {
    const report = checkManifest(variant(change));
    expect(report.valid).toBe(false);
    expect(paths(report.errors)).toEqual([path]);
    expect(report.errors[0]!.message).toMatch(/\S/);
  });

  it("words the rules plainly", () => {
    const messages = (m: Json) => checkManifest(m).errors.map((e) => e.message);
    expect(messages(variant((m) => (m.version = "2")))).toEqual(['must be "1"']);
    expect(messages(variant((m) => delete m.version))).toEqual(["is required"]);
    expect(messages(variant((m) => (m.bank.retain_extraction_mode = "fancy")))).toEqual([
      "must be one of concise, verbose, custom, verbatim, chunks",
    ]);
    expect(messages(variant((m) => (m.mental_models[0].max_tokens = 100)))).toEqual(["must be at least 256"]);
    expect(messages(variant((m) => (m.bank.disposition_empathy = 9)))).toEqual(["must be at most 5"]);
    expect(messages(variant((m) => (m.directives[0].name = " ")))).toEqual(["must not be blank"]);
    expect(messages(variant((m) => m.directives.push({ name: "Cite", content: "x" })))).toEqual(["repeats directives[1]"]);
  });

  it("reports every later repeat of a duplicate, each at its own element", () => {
    const model = (id: string) => ({ id, name: "n", source_query: "q" });
    const report = checkManifest({ version: "1", mental_models: [model("a"), model("b"), model("a"), model("a"), model("b")] });
    expect(paths(report.errors)).toEqual(["manifest.mental_models[2].id", "manifest.mental_models[3].id", "manifest.mental_models[4].id"]);
  });

  it("reports blank duplicates once, as blank", () => {
    const directive = { name: "  ", content: "c" };
    const report = checkManifest({ version: "1", directives: [directive, directive] });
    expect(paths(report.errors)).toEqual(["manifest.directives[0].name", "manifest.directives[1].name"]);
    expect(report.errors.every((e) => e.message === "must not be blank")).toBe(true);
  });

  it("does not add a custom-instructions error to an invalid mode", () => {
    const report = checkManifest(variant((m) => (m.bank.retain_extraction_mode = "custm")));
    expect(paths(report.errors)).toEqual(["manifest.bank.retain_extraction_mode"]);
  });

  it("matches ids and names exactly", () => {
    const report = checkManifest(
      variant((m) => {
        m.mental_models.push({ id: "Sentiment", name: "n", source_query: "q" });
        m.directives.push({ name: "be kind", content: "c" });
      }),
    );
    expect(report.errors).toEqual([]);
  });
});

describe("a manifest that is not an object", () => {
  it.each([null, [], "manifest", 42, true, undefined])("gets one error at the prefix: %j", (value) => {
    expect(checkManifest(value)).toEqual({
      valid: false,
      errors: [{ path: "manifest", message: "must be an object" }],
      warnings: [],
    });
  });

  it("uses the given prefix", () => {
    expect(paths(checkManifest([], "templates[0].manifest").errors)).toEqual(["templates[0].manifest"]);
  });
});

describe("path prefixes", () => {
  it("start every error and warning", () => {
    const report = checkManifest({ version: 2, extra: 1 }, "entry.manifest");
    expect(paths(report.errors)).toEqual(["entry.manifest.version"]);
    expect(paths(report.warnings)).toEqual(["entry.manifest.extra"]);
  });

  it("can be empty, for paths from the manifest's root", () => {
    const report = checkManifest({ version: "1", mental_models: [{ id: 1, name: "n", source_query: "q" }], x: 1 }, "");
    expect(paths(report.errors)).toEqual(["mental_models[0].id"]);
    expect(paths(report.warnings)).toEqual(["x"]);
  });
});

describe("several problems", () => {
  it("are reported together, one entry each", () => {
    const report = checkManifest({
      version: "0",
      bank: { retain_custom_instructions: "x", disposition_empathy: 0, enable_reranking: "yes" },
      mental_models: [
        { id: "a", name: "", source_query: "q", max_tokens: 10 },
        { id: "a", name: "n", source_query: " " },
      ],
      directives: [
        { name: "d", content: "c", priority: "high" },
        { name: "d", content: "" },
      ],
    });
    expect(report.valid).toBe(false);
    expect(paths(report.errors).sort()).toEqual(
      [
        "manifest.version",
        "manifest.bank.retain_custom_instructions",
        "manifest.bank.disposition_empathy",
        "manifest.bank.enable_reranking",
        "manifest.mental_models[0].name",
        "manifest.mental_models[0].max_tokens",
        "manifest.mental_models[1].id",
        "manifest.mental_models[1].source_query",
        "manifest.directives[0].priority",
        "manifest.directives[1].name",
        "manifest.directives[1].content",
      ].sort(),
    );
  });
});

describe("wrong types", () => {
  it.each([
    ["bank as a list", (m: Json) => (m.bank = []), "manifest.bank", "must be an object"],
    ["mental_models as an object", (m: Json) => (m.mental_models = {}), "manifest.mental_models", "must be an array"],
    ["a directive as a string", (m: Json) => (m.directives[1] = "Be nice"), "manifest.directives[1]", "must be an object"],
    ["a missing mental-model id", (m: Json) => delete m.mental_models[1].id, "manifest.mental_models[1].id", "is required"],
    ["a numeric id", (m: Json) => (m.mental_models[0].id = 7), "manifest.mental_models[0].id", "must be a string"],
    [
      "max_tokens as text",
      (m: Json) => (m.mental_models[0].max_tokens = "big"),
      "manifest.mental_models[0].max_tokens",
      "must be an integer",
    ],
    ["a fractional priority", (m: Json) => (m.directives[0].priority = 1.5), "manifest.directives[0].priority", "must be an integer"],
    ["is_active as text", (m: Json) => (m.directives[0].is_active = "yes"), "manifest.directives[0].is_active", "must be a boolean"],
    ["a numeric tag", (m: Json) => (m.directives[0].tags = ["ok", 3]), "manifest.directives[0].tags[1]", "must be a string"],
    ["a numeric mission", (m: Json) => (m.bank.retain_mission = 5), "manifest.bank.retain_mission", "must be a string"],
    [
      "a textual ratio",
      (m: Json) => (m.bank.recall_budget_adaptive_low = "half"),
      "manifest.bank.recall_budget_adaptive_low",
      "must be a number",
    ],
    ["retain_strategies as a list", (m: Json) => (m.bank.retain_strategies = []), "manifest.bank.retain_strategies", "must be an object"],
    ["trigger null", (m: Json) => (m.mental_models[0].trigger = null), "manifest.mental_models[0].trigger", "must be an object"],
    [
      "a label value without its value",
      (m: Json) => (m.bank.entity_labels[0].values[0] = { description: "d" }),
      "manifest.bank.entity_labels[0].values[0].value",
      "is required",
    ],
    [
      "a label group's fields as a list",
      (m: Json) => (m.bank.entity_labels[0].fields = []),
      "manifest.bank.entity_labels[0].fields",
      "must be an object",
    ],
  ])("%s is reported at the field", (_, change, path, message) => {
    expect(checkManifest(variant(change)).errors).toEqual([{ path, message }]);
  });

  it("inside a tag group is reported inside the kind the group names", () => {
    const report = checkManifest(
      variant((m) => {
        m.mental_models[0].trigger.tag_groups = [{ and: [{ tags: [1] }, { not: { or: "x" } }] }, { nope: true }, { not: { tags: "vip" } }];
      }),
    );
    expect(report.errors).toEqual([
      { path: "manifest.mental_models[0].trigger.tag_groups[0].and[0].tags[0]", message: "must be a string" },
      { path: "manifest.mental_models[0].trigger.tag_groups[0].and[1].not.or", message: "must be an array" },
      { path: "manifest.mental_models[0].trigger.tag_groups[1]", message: expect.stringContaining("tag group") },
      { path: "manifest.mental_models[0].trigger.tag_groups[2].not.tags", message: "must be an array" },
    ]);
  });
});

describe("manifestSections", () => {
  it("tells an absent section from an empty one", () => {
    const sections = (m: unknown) => manifestSections(BankTemplateManifest.parse(m));
    expect(sections({ version: "1" })).toEqual({ bank: null, mentalModels: undefined, directives: undefined });
    expect(sections({ version: "1", bank: null, mental_models: null, directives: null })).toEqual({
      bank: null,
      mentalModels: undefined,
      directives: undefined,
    });
    expect(sections({ version: "1", bank: {}, mental_models: [], directives: [] })).toEqual({
      bank: {},
      mentalModels: [],
      directives: [],
    });
  });

  it("returns the entries as given, unknown keys included", () => {
    const manifest = variant((m) => (m.directives[0].x_extra = 1));
    const sections = manifestSections(BankTemplateManifest.parse(manifest));
    expect(sections.bank).toStrictEqual(manifest.bank);
    expect(sections.mentalModels?.map((mm) => mm.id)).toEqual(["sentiment", "issues"]);
    expect(sections.directives?.[0]).toStrictEqual(manifest.directives[0]);
  });
});

describe("the schema as documentation", () => {
  it("converts to JSON Schema with the manifest's rules", () => {
    const json = z.toJSONSchema(BankTemplateManifest, { io: "input", unrepresentable: "any" }) as Json;
    expect(json.$ref).toBe("#/$defs/BankTemplateManifest");
    const defs = json.$defs;
    expect(defs.BankTemplateManifest.required).toEqual(["version"]);
    expect(defs.BankTemplateManifest.properties.version.const).toBe("1");
    expect(defs.BankTemplateMentalModel.properties.max_tokens).toMatchObject({ minimum: 256, maximum: 8192, default: 2048 });
    expect(Object.keys(defs)).toEqual(expect.arrayContaining(["BankTemplateConfig", "TagGroup", "MapField"]));
  });
});
