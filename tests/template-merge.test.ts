import { describe, expect, it } from "vitest";
import type { TemplateContent } from "@/lib/contracts/templates/content-fields";
import { type MergeConflict, mergeTemplate, resolutionsByPath } from "@/lib/contracts/templates/merge";

// The three-way merge of an update that keeps local edits (CONTRACT §16), case by case: each
// case changes a base template on the local side, the upstream side or both, and states the
// merged content and the conflicts (path, the three sides, and which sides lack the path).

const mm = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: `Model ${id}`, source_query: `What about ${id}?`, ...extra });
const dir = (name: string, content = `Rule ${name}`, extra: Record<string, unknown> = {}) => ({ name, content, ...extra });

const BASE: TemplateContent = {
  name: "Support",
  description: "Answers support questions.",
  category: "support",
  integrations: ["slack"],
  tags: ["starter", "support"],
  homepage_url: "https://example.com/support",
  manifest: {
    version: "1",
    bank: { retain_mission: "Keep decisions.", retain_chunk_size: 3000, entity_labels: [{ key: "team" }] },
    mental_models: [mm("a"), mm("b"), mm("c")],
    directives: [dir("brief"), dir("polite")],
  },
};

type Draft = TemplateContent & { manifest: Record<string, any> };
const clone = (): Draft => structuredClone(BASE) as Draft;
/** BASE changed by `edit`. */
const edited = (edit: (t: Draft) => void) => {
  const t = clone();
  edit(t);
  return t;
};
const conflict = (
  path: string,
  base: unknown,
  local: unknown,
  upstream: unknown,
  missing: MergeConflict["missing"] = [],
): MergeConflict => ({
  path,
  base,
  local,
  upstream,
  missing,
});

interface Case {
  name: string;
  base?: TemplateContent;
  local: (t: Draft) => void;
  upstream: (t: Draft) => void;
  /** The merged content, as BASE changed by this; absent when it is local's (a conflict leaves local's value). */
  merged?: (t: Draft) => void;
  conflicts?: MergeConflict[];
}

const none = () => {};

const CASES: Case[] = [
  { name: "nothing changed", local: none, upstream: none, merged: none },
  {
    name: "a metadata field changed locally only keeps local's",
    local: (t) => (t.name = "My support"),
    upstream: none,
    merged: (t) => (t.name = "My support"),
  },
  {
    name: "a metadata field changed upstream only takes upstream's",
    local: none,
    upstream: (t) => (t.description = "Newer words."),
    merged: (t) => (t.description = "Newer words."),
  },
  {
    name: "different metadata fields changed on each side take both",
    local: (t) => (t.name = "Mine"),
    upstream: (t) => (t.category = "helpdesk"),
    merged: (t) => {
      t.name = "Mine";
      t.category = "helpdesk";
    },
  },
  {
    name: "one metadata field changed on both sides to different values conflicts at its name",
    local: (t) => (t.name = "Mine"),
    upstream: (t) => (t.name = "Theirs"),
    conflicts: [conflict("name", "Support", "Mine", "Theirs")],
  },
  {
    name: "the same change on both sides is no conflict",
    local: (t) => (t.name = "Same"),
    upstream: (t) => (t.name = "Same"),
    merged: (t) => (t.name = "Same"),
  },
  {
    name: "tags are one whole value: both sides adding a tag conflict at tags",
    local: (t) => t.tags.push("mine"),
    upstream: (t) => t.tags.push("theirs"),
    conflicts: [conflict("tags", ["starter", "support"], ["starter", "support", "mine"], ["starter", "support", "theirs"])],
  },
  {
    name: "an array changed on one side only is taken whole",
    local: none,
    upstream: (t) => (t.integrations = ["slack", "teams"]),
    merged: (t) => (t.integrations = ["slack", "teams"]),
  },
  {
    name: "null vs a value: clearing description locally is a change kept",
    local: (t) => (t.description = null),
    upstream: none,
    merged: (t) => (t.description = null),
  },
  {
    name: "null vs a value: clearing locally and rewording upstream conflicts, null being a value (no side missing)",
    local: (t) => (t.description = null),
    upstream: (t) => (t.description = "Reworded."),
    conflicts: [conflict("description", "Answers support questions.", null, "Reworded.")],
  },
  {
    name: "nested config keys changed on different sides merge key by key",
    local: (t) => (t.manifest.bank.retain_mission = "Keep my decisions."),
    upstream: (t) => (t.manifest.bank.retain_chunk_size = 4000),
    merged: (t) => {
      t.manifest.bank.retain_mission = "Keep my decisions.";
      t.manifest.bank.retain_chunk_size = 4000;
    },
  },
  {
    name: "a nested config key changed on both sides conflicts at its path",
    local: (t) => (t.manifest.bank.retain_chunk_size = 2000),
    upstream: (t) => (t.manifest.bank.retain_chunk_size = 4000),
    conflicts: [conflict("manifest.bank.retain_chunk_size", 3000, 2000, 4000)],
  },
  {
    name: "config keys added on each side are both kept, local's first",
    local: (t) => (t.manifest.bank.reflect_mission = "Mine."),
    upstream: (t) => (t.manifest.bank.enable_observations = true),
    merged: (t) => {
      t.manifest.bank.reflect_mission = "Mine.";
      t.manifest.bank.enable_observations = true;
    },
  },
  {
    name: "the same key added on both sides with different values conflicts, base missing",
    local: (t) => (t.manifest.bank.reflect_mission = "Mine."),
    upstream: (t) => (t.manifest.bank.reflect_mission = "Theirs."),
    conflicts: [conflict("manifest.bank.reflect_mission", null, "Mine.", "Theirs.", ["base"])],
  },
  {
    name: "a key deleted locally and unchanged upstream is deleted",
    local: (t) => delete t.manifest.bank.retain_chunk_size,
    upstream: (t) => (t.manifest.bank.retain_mission = "Theirs."),
    merged: (t) => {
      delete t.manifest.bank.retain_chunk_size;
      t.manifest.bank.retain_mission = "Theirs.";
    },
  },
  {
    name: "null vs missing: a key deleted locally and set to null upstream conflicts, local missing",
    local: (t) => delete t.manifest.bank.retain_chunk_size,
    upstream: (t) => (t.manifest.bank.retain_chunk_size = null),
    conflicts: [conflict("manifest.bank.retain_chunk_size", 3000, null, null, ["local"])],
  },
  {
    name: "a key deleted upstream and edited locally conflicts, upstream missing",
    local: (t) => (t.manifest.bank.retain_chunk_size = 2000),
    upstream: (t) => delete t.manifest.bank.retain_chunk_size,
    conflicts: [conflict("manifest.bank.retain_chunk_size", 3000, 2000, null, ["upstream"])],
  },
  {
    name: "entity_labels is an array of the config, one whole value",
    local: (t) => (t.manifest.bank.entity_labels = [{ key: "team" }, { key: "mine" }]),
    upstream: (t) => (t.manifest.bank.entity_labels = [{ key: "theirs" }]),
    conflicts: [conflict("manifest.bank.entity_labels", [{ key: "team" }], [{ key: "team" }, { key: "mine" }], [{ key: "theirs" }])],
  },
  {
    name: "mental models are matched by id: fields of one model edited on different sides merge",
    local: (t) => (t.manifest.mental_models[1].name = "My B"),
    upstream: (t) => (t.manifest.mental_models[1].source_query = "Newer B?"),
    merged: (t) => Object.assign(t.manifest.mental_models[1], { name: "My B", source_query: "Newer B?" }),
  },
  {
    name: "mental models are matched by id even when upstream reordered them",
    local: (t) => (t.manifest.mental_models[0].name = "My A"),
    upstream: (t) => {
      t.manifest.mental_models.reverse();
      t.manifest.mental_models[0].source_query = "Newer C?";
    },
    // Both sides changed the list: local's order is kept, each model merged.
    merged: (t) => {
      t.manifest.mental_models[0].name = "My A";
      t.manifest.mental_models[2].source_query = "Newer C?";
    },
  },
  {
    name: "a mental model field edited on both sides conflicts at its index in local's manifest",
    local: (t) => {
      t.manifest.mental_models.splice(0, 1);
      t.manifest.mental_models[1].source_query = "My C?";
    },
    upstream: (t) => (t.manifest.mental_models[2].source_query = "Their C?"),
    conflicts: [conflict("manifest.mental_models[1].source_query", "What about c?", "My C?", "Their C?")],
  },
  {
    name: "mental models added on each side: local's order, then upstream's new ones in upstream's order",
    local: (t) => t.manifest.mental_models.splice(1, 0, mm("mine")),
    upstream: (t) => t.manifest.mental_models.push(mm("y"), mm("x")),
    merged: (t) => (t.manifest.mental_models = [mm("a"), mm("mine"), mm("b"), mm("c"), mm("y"), mm("x")]),
  },
  {
    name: "the same mental model added on both sides is no conflict",
    local: (t) => t.manifest.mental_models.push(mm("new")),
    upstream: (t) => t.manifest.mental_models.unshift(mm("new")),
    merged: (t) => t.manifest.mental_models.push(mm("new")),
  },
  {
    name: "a mental model deleted upstream and unchanged locally is deleted",
    local: (t) => (t.manifest.mental_models[0].name = "My A"),
    upstream: (t) => t.manifest.mental_models.splice(1, 1),
    merged: (t) => {
      t.manifest.mental_models[0].name = "My A";
      t.manifest.mental_models.splice(1, 1);
    },
  },
  {
    name: "a mental model deleted locally and unchanged upstream is deleted",
    local: (t) => t.manifest.mental_models.splice(2, 1),
    upstream: (t) => t.manifest.mental_models.push(mm("d")),
    merged: (t) => t.manifest.mental_models.splice(2, 1, mm("d")),
  },
  {
    name: "a mental model deleted locally and edited upstream conflicts at its index in upstream's manifest",
    local: (t) => t.manifest.mental_models.splice(1, 1),
    upstream: (t) => {
      t.manifest.mental_models.unshift(mm("first"));
      t.manifest.mental_models[2].name = "Their B";
    },
    // The conflicting model keeps local's side (deleted); upstream's added one is taken.
    merged: (t) => (t.manifest.mental_models = [mm("a"), mm("c"), mm("first")]),
    conflicts: [conflict("manifest.mental_models[2]", mm("b"), null, mm("b", { name: "Their B" }), ["local"])],
  },
  {
    name: "a mental model edited locally and deleted upstream conflicts, upstream missing",
    local: (t) => (t.manifest.mental_models[0].source_query = "Mine?"),
    upstream: (t) => t.manifest.mental_models.splice(0, 1),
    conflicts: [conflict("manifest.mental_models[0]", mm("a"), mm("a", { source_query: "Mine?" }), null, ["upstream"])],
  },
  {
    name: "directives are matched by name: a content edit and an added directive merge",
    local: (t) => (t.manifest.directives[1].content = "Be very polite."),
    upstream: (t) => t.manifest.directives.push(dir("cite")),
    merged: (t) => {
      t.manifest.directives[1].content = "Be very polite.";
      t.manifest.directives.push(dir("cite"));
    },
  },
  {
    name: "a directive's content edited on both sides conflicts at its local index",
    local: (t) => (t.manifest.directives[1].content = "Mine."),
    upstream: (t) => (t.manifest.directives[1].content = "Theirs."),
    conflicts: [conflict("manifest.directives[1].content", "Rule polite", "Mine.", "Theirs.")],
  },
  {
    name: "a directive's field added upstream and another directive deleted locally both apply",
    local: (t) => t.manifest.directives.splice(0, 1),
    upstream: (t) => (t.manifest.directives[1].priority = 5),
    merged: (t) => (t.manifest.directives = [dir("polite", "Rule polite", { priority: 5 })]),
  },
  {
    name: "the same directive added on both sides with different content conflicts field by field, base missing",
    local: (t) => t.manifest.directives.push(dir("cite", "Cite mine.")),
    upstream: (t) => t.manifest.directives.push(dir("cite", "Cite theirs.")),
    conflicts: [conflict("manifest.directives[2].content", null, "Cite mine.", "Cite theirs.", ["base"])],
  },
  {
    name: "a directive deleted on both sides is deleted",
    local: (t) => t.manifest.directives.splice(0, 1),
    upstream: (t) => t.manifest.directives.splice(0, 1),
    merged: (t) => t.manifest.directives.splice(0, 1),
  },
  {
    name: "a section added upstream (base and local without it) is taken",
    local: (t) => (t.name = "Mine"),
    upstream: (t) => (t.manifest.policy = { allow: ["recall"] }),
    merged: (t) => {
      t.name = "Mine";
      t.manifest.policy = { allow: ["recall"] };
    },
  },
  {
    name: "several conflicts are listed in the merged content's order",
    local: (t) => {
      t.tags = ["mine"];
      t.name = "Mine";
      t.manifest.directives[0].content = "Mine.";
    },
    upstream: (t) => {
      t.name = "Theirs";
      t.tags = ["theirs"];
      t.manifest.directives[0].content = "Theirs.";
    },
    conflicts: [
      conflict("name", "Support", "Mine", "Theirs"),
      conflict("tags", ["starter", "support"], ["mine"], ["theirs"]),
      conflict("manifest.directives[0].content", "Rule brief", "Mine.", "Theirs."),
    ],
  },
  {
    name: "an object's key order alone is no change",
    local: (t) => (t.manifest.bank = { retain_chunk_size: 3000, entity_labels: [{ key: "team" }], retain_mission: "Keep decisions." }),
    upstream: (t) => (t.manifest.bank.retain_mission = "Theirs."),
    merged: (t) => (t.manifest.bank = { retain_chunk_size: 3000, entity_labels: [{ key: "team" }], retain_mission: "Theirs." }),
  },
];

describe("mergeTemplate", () => {
  it("has at least 25 cases", () => expect(CASES.length).toBeGreaterThanOrEqual(25));

  it.each(CASES)("$name", ({ base = BASE, local, upstream, merged, conflicts = [] }) => {
    const l = edited(local);
    const u = edited(upstream);
    const result = mergeTemplate(base, l, u);
    expect(result.conflicts).toEqual(conflicts);
    expect(result.merged).toEqual(merged ? edited(merged) : l);
    // Deterministic, and the sides are left as they were.
    expect(mergeTemplate(base, l, u)).toEqual(result);
    expect(l).toEqual(edited(local));
    expect(u).toEqual(edited(upstream));
  });

  it("keeps local's key order, then upstream's new keys", () => {
    const local = edited((t) => (t.manifest.bank = { z: 1, ...t.manifest.bank }));
    const upstream = edited((t) => (t.manifest.bank.a = 2));
    const { merged } = mergeTemplate(BASE, local, upstream);
    expect(Object.keys(merged.manifest.bank as object)).toEqual(["z", "retain_mission", "retain_chunk_size", "entity_labels", "a"]);
  });

  it("resolves each conflict with the resolution for its path: local, upstream, or a value of its own", () => {
    const local = edited((t) => {
      t.name = "Mine";
      t.manifest.mental_models[0].source_query = "Mine?";
      t.manifest.directives[0].content = "Mine.";
    });
    const upstream = edited((t) => {
      t.name = "Theirs";
      t.manifest.mental_models.splice(0, 1);
      t.manifest.directives[0].content = "Theirs.";
    });
    expect(mergeTemplate(BASE, local, upstream).conflicts.map((c) => c.path)).toEqual([
      "name",
      "manifest.mental_models[0]",
      "manifest.directives[0].content",
    ]);
    const resolved = mergeTemplate(BASE, local, upstream, {
      name: { take: "value", value: "Ours" },
      // Upstream's side lacks the model: taking it deletes the model.
      "manifest.mental_models[0]": { take: "upstream" },
      "manifest.directives[0].content": { take: "local" },
    });
    expect(resolved.conflicts).toEqual([]);
    expect(resolved.resolved).toEqual(["name", "manifest.mental_models[0]", "manifest.directives[0].content"]);
    expect(resolved.merged).toEqual(
      edited((t) => {
        t.name = "Ours";
        t.manifest.mental_models.splice(0, 1);
        t.manifest.directives[0].content = "Mine.";
      }),
    );
  });

  it("lists the conflicts left, and uses no resolution of a path that is not a conflict", () => {
    const local = edited((t) => {
      t.name = "Mine";
      t.manifest.directives[0].content = "Mine.";
    });
    const upstream = edited((t) => {
      t.name = "Theirs";
      t.manifest.directives[0].content = "Theirs.";
    });
    const partial = mergeTemplate(BASE, local, upstream, {
      name: { take: "upstream" },
      description: { take: "value", value: "Not a conflict." },
      "manifest.directives[0]": { take: "local" },
    });
    expect(partial.resolved).toEqual(["name"]);
    expect(partial.conflicts).toEqual([conflict("manifest.directives[0].content", "Rule brief", "Mine.", "Theirs.")]);
    expect(partial.merged).toMatchObject({ name: "Theirs", description: BASE.description });
  });

  it("a value may be null, which is a value and not a deletion", () => {
    const local = edited((t) => (t.description = "Mine."));
    const upstream = edited((t) => (t.description = "Theirs."));
    const { merged } = mergeTemplate(BASE, local, upstream, { description: { take: "value", value: null } });
    expect(merged).toHaveProperty("description", null);
  });
});

describe("resolutionsByPath", () => {
  it("keeps a value only with take: value", () => {
    expect(
      resolutionsByPath([
        { path: "name", take: "local" },
        { path: "tags", take: "value", value: ["a"] },
      ]),
    ).toEqual({ name: { take: "local" }, tags: { take: "value", value: ["a"] } });
  });
});
