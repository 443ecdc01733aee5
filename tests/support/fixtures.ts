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
