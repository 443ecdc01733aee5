// What a template holds at a glance (the template page and the Marketplace preview): from its content alone.
import { describe, expect, it } from "vitest";
import { describeSummary, summarizeTemplate } from "@/components/templates/template-summary";

const content = (
  manifest: Record<string, unknown> | null,
  labels: { category?: string | null; integrations?: string[]; tags?: string[] } = {},
) => ({
  category: labels.category ?? null,
  integrations: labels.integrations ?? [],
  tags: labels.tags ?? [],
  manifest,
});

describe("summarizeTemplate", () => {
  it("counts mental models and directives by name, lists the bank settings set and keeps the labels", () => {
    const summary = summarizeTemplate(
      content(
        {
          version: "1",
          bank: { retain_mission: "Keep decisions.", disposition_empathy: 4, reflect_mission: null },
          mental_models: [
            { id: "decisions", name: "Decisions", source_query: "What was decided?" },
            { id: "open", name: "Open questions", source_query: "What is open?" },
            { id: "team", source_query: "Who is who?" },
          ],
          directives: [
            { name: "Be brief", content: "Two sentences." },
            { name: "Cite", content: "Name the source.", is_active: false },
          ],
        },
        { category: "support", integrations: ["slack"], tags: ["starter"] },
      ),
    );
    expect(summary).toEqual({
      mentalModels: ["Decisions", "Open questions", "team"],
      directives: ["Be brief", "Cite"],
      inactiveDirectives: 1,
      // A null value sets nothing, as an import reads it.
      bankSettings: ["retain_mission", "disposition_empathy"],
      category: "support",
      integrations: ["slack"],
      tags: ["starter"],
    });
    expect(describeSummary(summary)).toBe("3 mental models, 2 directives (1 off), 2 bank settings");
  });

  it("tells a list the manifest leaves alone (absent or null) from an empty one", () => {
    const untouched = summarizeTemplate(content({ version: "1", mental_models: null, directives: [] }));
    expect(untouched.mentalModels).toBeNull();
    expect(untouched.directives).toEqual([]);
    expect(describeSummary(untouched)).toBe("0 directives");
    expect(describeSummary(summarizeTemplate(content({ version: "1", bank: { retain_mission: "Keep it." } })))).toBe("1 bank setting");
  });

  it("says a manifest that sets nothing does so, and a catalog entry without a manifest holds nothing known", () => {
    expect(describeSummary(summarizeTemplate(content({ version: "1" })))).toBe("Sets nothing in a bank");
    const missing = summarizeTemplate(content(null, { tags: ["kept"] }));
    expect(missing).toMatchObject({ mentalModels: null, directives: null, bankSettings: [], tags: ["kept"] });
  });

  it("names an entry without a usable name by its place", () => {
    const summary = summarizeTemplate(content({ version: "1", mental_models: [{ id: " " }, "odd"], directives: [{ name: "" }] }));
    expect(summary.mentalModels).toEqual(["#1", "#2"]);
    expect(summary.directives).toEqual(["#1"]);
  });
});
