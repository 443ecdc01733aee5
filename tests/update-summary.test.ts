// The one line per template that "Update all" confirms: what the update would change.
import { describe, expect, it } from "vitest";
import { describeUpdate } from "@/components/templates/update-summary";

const content = (overrides: Record<string, unknown> = {}, manifest: Record<string, unknown> = {}) => ({
  name: "Support bot",
  description: "Answers.",
  category: null,
  tags: ["support"],
  integrations: [],
  homepage_url: null,
  ...overrides,
  manifest: {
    version: "1",
    bank: { retain_mission: "Keep it." },
    mental_models: [
      { id: "faq", name: "FAQ", source_query: "q" },
      { id: "open", name: "Open", source_query: "q" },
    ],
    directives: [{ name: "Cite", content: "Cite sources." }],
    ...manifest,
  },
});

describe("describeUpdate", () => {
  it("is empty for the same content", () => {
    expect(describeUpdate(content(), content())).toEqual([]);
  });

  it("names changed details, bank settings and counts list entries by their key", () => {
    const latest = content(
      { description: "Answers better.", tags: ["support", "faq"], homepage_url: "https://example.com/support-bot" },
      {
        bank: { retain_mission: "Keep more." },
        mental_models: [
          { id: "faq", name: "FAQ v2", source_query: "q" },
          { id: "open", name: "Open", source_query: "q2" },
          { id: "new", name: "New", source_query: "q" },
        ],
        directives: [],
        extra: true,
      },
    );
    expect(describeUpdate(content(), latest)).toEqual([
      "description changed",
      "tags changed",
      "home page changed",
      "bank settings changed",
      "2 mental models changed, 1 added",
      "1 directive removed",
      "extra changed",
    ]);
  });

  it("reads a list that is absent or null as empty", () => {
    expect(describeUpdate(content({}, { directives: null }), content())).toEqual(["1 directive added"]);
  });
});
