/** Bank-template manifests and catalogs for tests. */
export function manifest(overrides: Record<string, unknown> = {}) {
  return {
    version: "1",
    bank: { retain_mission: "Keep decisions and their reasons.", disposition_skepticism: 3 },
    mental_models: [
      { id: "open-questions", name: "Open questions", source_query: "What is still open?" },
      { id: "decisions", name: "Decisions", source_query: "What was decided?" },
    ],
    directives: [
      { name: "Cite sources", content: "Name the document each fact comes from." },
      { name: "Be brief", content: "Answer in three sentences or fewer." },
    ],
    ...overrides,
  };
}

export function catalogEntry(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    name: `Template ${id}`,
    description: `The ${id} template`,
    category: "engineering",
    integrations: ["slack"],
    tags: ["starter"],
    manifest: manifest(),
    ...extra,
  };
}

export function catalog(...templates: Record<string, unknown>[]) {
  return { catalog_version: "1", name: "Test market", templates };
}

/**
 * A manifest with `models` mental models and `directives` directives of the sizes real templates
 * use: a sentence or two of text, a few tags, a trigger. `variant` changes every entry's text.
 */
export function largeManifest(models: number, directives: number, variant = "") {
  return {
    version: "1",
    bank: { retain_mission: "Keep decisions and their reasons.", disposition_skepticism: 3 },
    mental_models: Array.from({ length: models }, (_, i) => ({
      id: `model-${String(i).padStart(4, "0")}`,
      name: `Open questions of area ${i}`,
      source_query: `What is still open in area ${i}, who owns each question, what blocks an answer, and which decisions wait on it?${variant}`,
      tags: ["team", `area-${i % 20}`],
      max_tokens: 1024,
      trigger: { mode: "delta", refresh_after_consolidation: true },
    })),
    directives: Array.from({ length: directives }, (_, i) => ({
      name: `Directive ${String(i).padStart(4, "0")}`,
      content: `When answering about area ${i}, name the document each fact comes from and say when it was last confirmed.${variant}`,
      priority: i % 10,
      tags: ["sources", `area-${i % 20}`],
    })),
  };
}
