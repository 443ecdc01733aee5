// The rollout preview's groups (issue 33): banks whose dry run came out the same are one group.
import { describe, expect, it } from "vitest";
import { groupHeading, groupPreviews, keptByMerge, type MergeFacts } from "@/components/templates/rollout-groups";
import type { BankRolloutOutcome } from "@/lib/client/hooks/banks";

const changes = (content: string) => ({
  config: [{ field: "retain_mission", before: "Keep it.", after: "Keep it all." }],
  mental_models: [],
  directives: [{ name: "Cite", change: "update" as const, before: { name: "Cite", content: "old" }, after: { name: "Cite", content } }],
});

function previewed(bankId: string, content: string): BankRolloutOutcome {
  const importResult = {
    bank_id: bankId,
    config_applied: true,
    mental_models_created: [],
    mental_models_updated: [],
    directives_created: [],
    directives_updated: ["Cite"],
    operation_ids: [],
    dry_run: true,
  };
  return {
    bankId,
    applied: true,
    result: { bank_id: bankId, applied: true, import_result: importResult, changes: changes(content), problem: null },
    reason: null,
  };
}

const failed = (bankId: string, reason: string): BankRolloutOutcome => ({ bankId, applied: false, result: null, reason });

describe("groupPreviews", () => {
  it("puts banks with the same changes in one group, in the order previewed, whatever their ids", () => {
    const groups = groupPreviews(["b-1", "b-2", "b-3"].map((id) => previewed(id, "new")));
    expect(groups).toHaveLength(1);
    expect(groups[0]!.bankIds).toEqual(["b-1", "b-2", "b-3"]);
    expect(groupHeading(groups[0]!)).toBe("3 banks get the same 2 changes");
  });

  it("keeps different changes apart, the largest group first, and failures by their reason before them", () => {
    const groups = groupPreviews([
      previewed("b-1", "other"),
      failed("b-2", "403 Forbidden: not yours"),
      previewed("b-3", "new"),
      previewed("b-4", "new"),
      failed("b-5", "403 Forbidden: not yours"),
      failed("b-6", "500 Internal error"),
    ]);
    expect(groups.map((group) => [group.bankIds, groupHeading(group)])).toEqual([
      [["b-2", "b-5"], "2 banks would fail for the same reason"],
      [["b-6"], "b-6 would fail"],
      [["b-3", "b-4"], "2 banks get the same 2 changes"],
      [["b-1"], "b-1 gets 2 changes"],
    ]);
    expect(groups[0]!.reason).toBe("403 Forbidden: not yours");
  });

  it("says when nothing would change", () => {
    const unchanged = previewed("b-1", "new");
    unchanged.result!.changes = { config: [], mental_models: [], directives: [] };
    expect(groupHeading(groupPreviews([unchanged])[0]!)).toBe("b-1: nothing changes");
  });
});

describe("a merged rollout's preview (issue 36)", () => {
  const directive = (content: string) => ({ name: "Cite", content });

  it("keeps what the apply without merge would overwrite and the merge leaves or writes otherwise", () => {
    const plain = {
      config: [
        { field: "retain_mission", before: "Mine.", after: "Theirs." },
        { field: "disposition_empathy", before: 2, after: 4 },
      ],
      mental_models: [
        { id: "facts", change: "update" as const, before: { id: "facts", name: "Mine" }, after: { id: "facts", name: "Facts" } },
      ],
      directives: [{ name: "Cite", change: "update" as const, before: directive("mine"), after: directive("theirs") }],
    };
    const merged = {
      config: [{ field: "disposition_empathy", before: 2, after: 4 }],
      mental_models: [],
      directives: [{ name: "Cite", change: "update" as const, before: directive("mine"), after: { ...directive("mine"), priority: 2 } }],
    };
    expect(keptByMerge(plain, merged)).toEqual({ config: ["retain_mission"], mentalModels: ["facts"], directives: ["Cite"] });
    expect(keptByMerge(plain, plain)).toEqual({ config: [], mentalModels: [], directives: [] });
  });

  it("groups banks by what the merge keeps too, and gives a bank with conflicts a group of its own", () => {
    const kept = { config: [], mentalModels: [], directives: ["Cite"] };
    const facts = new Map<string, MergeFacts>([
      ["b-1", { editedHere: true, kept }],
      ["b-2", { editedHere: false, kept: { ...kept, directives: [] } }],
      ["b-3", { editedHere: true, kept }],
    ]);
    const conflict = { path: "manifest.directives[0].content", base: "a", local: "b", upstream: "c", missing: [] };
    const conflicting = (bankId: string): BankRolloutOutcome => ({
      bankId,
      applied: false,
      result: {
        bank_id: bankId,
        applied: false,
        import_result: null,
        changes: null,
        problem: { type: "urn:x:merge-conflict", title: "Merge conflict", status: 409, detail: "both changed", conflicts: [conflict] },
      },
      reason: "409 Merge conflict: both changed",
    });
    const groups = groupPreviews(
      [previewed("b-1", "new"), previewed("b-2", "new"), previewed("b-3", "new"), conflicting("b-4"), conflicting("b-5")],
      facts,
    );
    expect(groups.map((group) => [group.bankIds, groupHeading(group)])).toEqual([
      [["b-4"], "b-4: 1 conflict to choose"],
      [["b-5"], "b-5: 1 conflict to choose"],
      [["b-1", "b-3"], "2 banks get the same 2 changes"],
      [["b-2"], "b-2 gets 2 changes"],
    ]);
    expect(groups[0]!.conflicts).toEqual([conflict]);
    expect(groups[2]!.merge).toEqual({ editedHere: true, kept });
  });
});
