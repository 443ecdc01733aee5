// What Home says about templates and getting started, from the lists it loads.
import { describe, expect, it } from "vitest";
import { CHECK_STALE_HOURS, checkAge, firstSteps, homeSummary, templateAttention } from "@/components/home/attention";
import { formatAge } from "@/lib/client/format";
import type { TemplateData } from "@/lib/client/hooks/templates";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const hoursAgo = (hours: number) => new Date(NOW - hours * 3600_000).toISOString();

const template = (id: string, scope: "personal" | "server", status: Partial<TemplateData> = {}): TemplateData =>
  ({
    id,
    scope,
    name: id,
    source_name: "acme",
    source_revision: "aaaa",
    latest_revision: "aaaa",
    update_checked_at: hoursAgo(1),
    ...status,
  }) as TemplateData;

describe("templateAttention", () => {
  it("lists updates, and templates from a source never checked or not checked lately; hand-made ones never", () => {
    const fresh = template("fresh", "personal");
    const update = template("update", "server", { latest_revision: "bbbb", update_checked_at: hoursAgo(CHECK_STALE_HOURS * 3) });
    const stale = template("stale", "server", { update_checked_at: hoursAgo(CHECK_STALE_HOURS + 1) });
    const never = template("never", "personal", { latest_revision: null, update_checked_at: null });
    const handMade = template("hand", "personal", {
      source_name: null,
      source_revision: null,
      latest_revision: null,
      update_checked_at: null,
    });
    const attention = templateAttention([fresh, update, stale, never, handMade], NOW);
    expect(attention.updates.map((t) => t.id)).toEqual(["update"]);
    expect(attention.unchecked.map((t) => t.id)).toEqual(["stale", "never"]);
    // Per scope, the least recent check; a template never checked makes it null.
    expect(attention.oldestCheck).toEqual({ personal: null, server: hoursAgo(CHECK_STALE_HOURS * 3) });
  });

  it("knows no check time for a scope without templates from a source", () => {
    const handMade = template("hand", "personal", { source_name: null, update_checked_at: null, latest_revision: null });
    expect(templateAttention([handMade], NOW)).toEqual({ updates: [], unchecked: [], oldestCheck: {} });
  });
});

describe("checkAge", () => {
  it("says a check of the last minute so, not 'now', and older ones as any age", () => {
    expect(checkAge(hoursAgo(0), NOW)).toBe("within the last minute");
    expect(checkAge(hoursAgo(2), NOW)).toBe(formatAge(hoursAgo(2), NOW));
  });
});

describe("first steps and the summary", () => {
  it("leads a fresh install through a source, a template and a bank; a bank ends them", () => {
    const fresh = firstSteps({ sources: 0, templates: 0, banks: 0 });
    expect(fresh).toEqual([
      { step: "source", done: false },
      { step: "template", done: false },
      { step: "bank", done: false },
    ]);
    expect(homeSummary(0, fresh)).toBe("Get started: add a source, then install a template, then create a bank.");
    // A member with the server's templates to use has one step left.
    expect(homeSummary(0, firstSteps({ sources: 1, templates: 2, banks: 0 }))).toBe("Get started: create a bank.");
    expect(firstSteps({ sources: 0, templates: 0, banks: 1 })).toBeNull();
    expect(homeSummary(0, null)).toBe("Nothing needs your attention.");
  });

  it("counts what waits first", () => {
    expect(homeSummary(1, firstSteps({ sources: 0, templates: 0, banks: 0 }))).toBe("1 thing needs your attention.");
    expect(homeSummary(3, null)).toBe("3 things need your attention.");
  });
});
