/*
 * The import of issue 11: a second template that changes three config fields, updates one mental
 * model and creates one directive, and leaves the rest as it was. Shared by the embedded and the
 * remote store's tests.
 */

const base = {
  version: "1",
  bank: { disposition_literalism: 5, disposition_skepticism: 4, reflect_mission: "Answer support questions.", enable_observations: true },
  mental_models: [
    { id: "facts", name: "Facts", source_query: "What do we know?", tags: [] as string[] },
    { id: "people", name: "People", source_query: "Who is involved?", tags: [] as string[] },
  ],
  directives: [{ name: "Cite sources", content: "Name the document.", priority: 0, is_active: true, tags: [] as string[] }],
};

const second = {
  version: "1",
  // enable_observations keeps its value: not a change.
  bank: { disposition_literalism: 3, disposition_skepticism: 3, reflect_mission: "Help the sales team.", enable_observations: true },
  mental_models: [
    base.mental_models[0]!,
    { id: "people", name: "People and roles", source_query: "Who is involved, in which role?", tags: [] as string[] },
  ],
  directives: [base.directives[0]!, { name: "Be brief", content: "Three sentences.", priority: 0, is_active: true, tags: [] as string[] }],
};

const third = {
  version: "1",
  directives: [{ name: "Be kind", content: "Always.", priority: 0, is_active: true, tags: [] as string[] }],
};

const expectedChanges = {
  config: [
    { field: "disposition_literalism", before: 5, after: 3 },
    { field: "disposition_skepticism", before: 4, after: 3 },
    { field: "reflect_mission", before: "Answer support questions.", after: "Help the sales team." },
  ],
  mental_models: [{ id: "people", change: "update", before: base.mental_models[1], after: second.mental_models[1] }],
  directives: [{ name: "Be brief", change: "create", before: null, after: second.directives[1] }],
};

/** A mental model as Hindsight holds it once imported: the defaults it fills in (CONTRACT §15). */
const heldByHindsight = (model: Record<string, unknown>) => ({
  tags: [],
  max_tokens: 2048,
  trigger: { mode: "full", refresh_after_consolidation: false, exclude_mental_models: false, keep_trace: false },
  ...model,
});

/** The same changes as the remote store reports them: it compares and reports entries as Hindsight holds them. */
const expectedRemoteChanges = {
  ...expectedChanges,
  mental_models: expectedChanges.mental_models.map((c) => ({ ...c, before: heldByHindsight(c.before!), after: heldByHindsight(c.after!) })),
};

export const applySecondTemplateCase = { base, second, third, expectedChanges, expectedRemoteChanges };
