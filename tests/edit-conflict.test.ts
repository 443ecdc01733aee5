import { describe, expect, it } from "vitest";
import { changedBySentence, changesSince, isEditConflict, versionOfRow } from "@/components/forms/edit-conflict";
import { keepEntityTag } from "@/lib/client/entity-tag";
import { ApiProblem } from "@/lib/client/problem";
import { PROBLEM_TYPE_PREFIX } from "@/lib/contracts/problem-type-prefix";
import { mergeTemplate } from "@/lib/contracts/templates/merge";

// What a form says and does when its save found the resource changed by someone else (CONTRACT
// §19's 412): who changed it, since which version, and a field form's merge.

const AT = "2026-11-28T09:40:12.000Z";

describe("a save that found the resource changed meanwhile", () => {
  it("is a 412 precondition-failed, nothing else", () => {
    expect(isEditConflict(new ApiProblem(412, "Precondition Failed", "changed", [], `${PROBLEM_TYPE_PREFIX}precondition-failed`))).toBe(
      true,
    );
    expect(isEditConflict(new ApiProblem(409, "Conflict", "taken", [], `${PROBLEM_TYPE_PREFIX}id-taken`))).toBe(false);
  });

  it("names who changed it, or says someone plainly", () => {
    expect(changedBySentence([{ actor: "nadia", at: AT }], false)).toMatch(/^nadia changed it on /);
    expect(changedBySentence([{ actor: "nadia", at: AT }], true)).toMatch(/^nadia deleted it on /);
    expect(
      changedBySentence(
        [
          { actor: "omar", at: AT },
          { actor: "nadia", at: AT },
          { actor: "omar", at: AT },
        ],
        false,
      ),
    ).toMatch(/^omar and nadia changed it 3 times, last on /);
    expect(changedBySentence([], false)).toBe("Someone changed it; who and when cannot be known here.");
    expect(changedBySentence(null, true)).toBe("Someone deleted it; who and when cannot be known here.");
  });

  it("counts the changes since the version the form showed, newest first", () => {
    const history = [
      { actor: "omar", at: AT, after: { v: 3 } },
      { actor: "nadia", at: AT, after: { v: 2 } },
      { actor: "pia", at: AT, after: { v: 1 } },
    ];
    expect(changesSince(history, { v: 1 }, (e) => e.after).map((e) => e.actor)).toEqual(["omar", "nadia"]);
    expect(changesSince(history, { v: 3 }, (e) => e.after)).toEqual([]);
    // A version the history does not reach: every change it lists may be one.
    expect(changesSince(history, { v: 0 }, (e) => e.after)).toHaveLength(3);
  });

  it("merges a field form per field: mine where only I changed, theirs where only they did, both changed asks", () => {
    const base = { url: "https://a.test", description: "Old" };
    const onlyOneEach = mergeTemplate(base, { ...base, description: "Mine" }, { ...base, url: "https://b.test" });
    expect(onlyOneEach).toMatchObject({ merged: { url: "https://b.test", description: "Mine" }, conflicts: [] });
    const both = mergeTemplate(base, { ...base, description: "Mine" }, { ...base, description: "Theirs" });
    expect(both.conflicts.map((c) => [c.path, c.local, c.upstream])).toEqual([["description", "Mine", "Theirs"]]);
  });
});

describe("deleting a listed item", () => {
  const row = { id: "bot", display_name: "Bot", updated_at: AT };

  it("is made against the item read again while it still holds what the row showed", () => {
    const now = { ...row, extra: "only in the one" };
    keepEntityTag(now, '"v1"');
    expect(versionOfRow(row, now, "service account")).toBe('"v1"');
    expect(versionOfRow(row, undefined, "service account")).toBeUndefined();
  });

  it("is refused when the item changed since the list was read", () => {
    const now = { ...row, display_name: "Renamed" };
    keepEntityTag(now, '"v2"');
    expect(() => versionOfRow(row, now, "service account")).toThrow(/Someone changed this service account after the list was loaded/);
  });

  it("compares only the fields named, when some change by themselves", () => {
    const now = { ...row, updated_at: "2026-12-01T00:00:00.000Z" };
    keepEntityTag(now, '"v3"');
    expect(versionOfRow(row, now, "webhook", ["id", "display_name"])).toBe('"v3"');
    expect(() => versionOfRow(row, { ...now, display_name: "Renamed" }, "webhook", ["display_name"])).toThrow(
      /Someone changed this webhook/,
    );
  });
});
