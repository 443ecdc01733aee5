// What a person chooses for each conflict on the update review page (components/templates/
// merge-choices.ts): the words that differ, the resolutions the choices send, and each path named
// in words.
import { describe, expect, it } from "vitest";
import { conflictTitle, editedChoice, editedValue, resolutionsOf } from "@/components/templates/merge-choices";
import { wordDiff } from "@/components/templates/word-diff";
import type { TemplateContent } from "@/lib/contracts/templates/content-fields";
import type { MergeConflict } from "@/lib/contracts/templates/merge";

const conflict = (path: string, local: unknown, upstream: unknown, missing: MergeConflict["missing"] = []): MergeConflict => ({
  path,
  base: null,
  local,
  upstream,
  missing,
});

const content = (manifest: Record<string, unknown>): TemplateContent => ({
  name: "Notes",
  description: null,
  category: null,
  integrations: [],
  tags: [],
  homepage_url: null,
  manifest,
});

describe("wordDiff", () => {
  it("marks the words each side has that the other lacks", () => {
    const { mine, theirs } = wordDiff("Answer warmly, and say thanks.", "Answer plainly and briefly.");
    expect(mine.filter((r) => r.kind === "own").map((r) => r.text)).toEqual(["warmly,", "say thanks"]);
    expect(theirs.filter((r) => r.kind === "own").map((r) => r.text)).toEqual(["plainly", "briefly"]);
    // Each side's runs put together are that side's text.
    expect(mine.map((r) => r.text).join("")).toBe("Answer warmly, and say thanks.");
    expect(theirs.map((r) => r.text).join("")).toBe("Answer plainly and briefly.");
  });
});

describe("choices and their resolutions", () => {
  const name = conflict("name", "Mine", "Theirs");
  const tags = conflict("tags", ["a", "mine"], ["a", "theirs"]);

  it("an edited value starts from mine, as text for text and as JSON for anything else; from upstream's where mine is deleted", () => {
    expect(editedChoice(name)).toEqual({ take: "value", text: "Mine" });
    expect(editedChoice(tags)).toEqual({ take: "value", text: '[\n  "a",\n  "mine"\n]' });
    const deleted = conflict("manifest.directives[1]", null, { name: "Cite", content: "Cite." }, ["local"]);
    expect(editedChoice(deleted)).toEqual({ take: "value", text: '{\n  "name": "Cite",\n  "content": "Cite."\n}' });
  });

  it("an edited value must be JSON where it is not text, and what its field holds", () => {
    expect(editedValue(name, "Ours")).toEqual({ value: "Ours" });
    expect(editedValue(name, "  ")).toEqual({ problem: "must be text, and not blank" });
    expect(editedValue(tags, '["a", "ours"]')).toEqual({ value: ["a", "ours"] });
    expect(editedValue(tags, '["a", 1]')).toEqual({ problem: 'must be a list of texts, such as ["a", "b"]' });
    expect(editedValue(tags, "[")).toMatchObject({ problem: expect.stringMatching(/^is not valid JSON/) });
    expect(editedValue(conflict("description", "Mine", "Theirs"), "")).toEqual({ value: "" });
  });

  it("make resolutions only once every conflict has a choice that can be taken", () => {
    expect(resolutionsOf([name, tags], { name: { take: "upstream" } })).toBeNull();
    expect(resolutionsOf([name, tags], { name: { take: "upstream" }, tags: { take: "value", text: "[" } })).toBeNull();
    expect(
      resolutionsOf([name, tags], { name: { take: "value", text: "Ours" }, tags: { take: "local" }, gone: { take: "upstream" } }),
    ).toEqual({ name: { take: "value", value: "Ours" }, tags: { take: "local" } });
  });
});

describe("conflictTitle", () => {
  const local = content({ bank: {}, directives: [{ name: "Be kind", content: "Mine." }], mental_models: [{ id: "decisions" }] });
  const upstream = content({
    directives: [
      { name: "Cite", content: "Cite." },
      { name: "Be kind", content: "Theirs." },
    ],
  });

  it("names a path in words: the field, the entry by its name, the bank setting", () => {
    const title = (path: string, missing: MergeConflict["missing"] = []) => conflictTitle(conflict(path, 1, 2, missing), local, upstream);
    expect(title("name")).toBe("Name");
    expect(title("homepage_url")).toBe("Home page");
    expect(title("manifest.directives[0].content")).toBe("Directive “Be kind”: content");
    // An entry mine deleted is at its index in upstream's manifest.
    expect(title("manifest.directives[0]", ["local"])).toBe("Directive “Cite”");
    expect(title("manifest.mental_models[0].source_query")).toBe("Mental model “decisions”: source_query");
    expect(title("manifest.bank.retain_mission")).toBe("Bank setting retain_mission");
    expect(title("manifest.version")).toBe("Manifest version");
  });
});
