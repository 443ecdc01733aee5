import { formatAge } from "@/lib/client/format";
import { hasUpdate, type TemplateData } from "@/lib/client/hooks/templates";
import type { ScopeKind } from "@/lib/contracts/scope";
import { plural } from "@/lib/shared/plural";

// What Home says about templates and about getting started, from the lists it loads: pure, so
// the wording is tested without a browser.

/**
 * A template from a source whose update status is older than this is "not checked lately": the
 * server checks every hour unless told otherwise, so such a status means the checks are off or
 * keep failing, and an update may be waiting unseen.
 */
export const CHECK_STALE_HOURS = 24;

export interface TemplateAttention {
  /** Templates whose source held a newer revision at the last check. */
  updates: TemplateData[];
  /** Templates from a source never checked, or not within CHECK_STALE_HOURS, with no update known: one may wait unseen. */
  unchecked: TemplateData[];
  /** Per scope that has templates from a source: when the least recently checked was checked (null: one never was). */
  oldestCheck: Partial<Record<ScopeKind, string | null>>;
}

const fromSource = (t: TemplateData) => t.source_name !== null;

/** Whether a template's update status is missing or older than CHECK_STALE_HOURS at `now` (ms since the epoch). */
function isUnchecked(t: Pick<TemplateData, "update_checked_at">, now: number): boolean {
  if (t.update_checked_at === null) return true;
  return now - new Date(t.update_checked_at).getTime() > CHECK_STALE_HOURS * 3600_000;
}

/** How long ago a check was, to follow "checked": "5 minutes ago", or "within the last minute" rather than "now". */
export const checkAge = (at: string, now: number) =>
  now - new Date(at).getTime() < 60_000 ? "within the last minute" : formatAge(at, now);

/** What waits among `templates`, from their stored update status, at `now`. */
export function templateAttention(templates: TemplateData[], now: number): TemplateAttention {
  const sourced = templates.filter(fromSource);
  const oldestCheck: TemplateAttention["oldestCheck"] = {};
  for (const t of sourced) {
    const known = oldestCheck[t.scope];
    if (known === null) continue;
    if (t.update_checked_at === null || known === undefined || t.update_checked_at < known) oldestCheck[t.scope] = t.update_checked_at;
  }
  return {
    updates: sourced.filter(hasUpdate),
    unchecked: sourced.filter((t) => !hasUpdate(t) && isUnchecked(t, now)),
    oldestCheck,
  };
}

/** One of the first steps on a server: a source to install from, a template, a bank made from it. */
export type FirstStep = "source" | "template" | "bank";

/** The first steps, in order, with whether each is done; null once the user has a bank (they are under way). */
export function firstSteps(counts: { sources: number; templates: number; banks: number }): { step: FirstStep; done: boolean }[] | null {
  if (counts.banks > 0) return null;
  return [
    { step: "source", done: counts.sources > 0 },
    { step: "template", done: counts.templates > 0 },
    { step: "bank", done: false },
  ];
}

const STEP_WORDS: Record<FirstStep, string> = {
  source: "add a source",
  template: "install a template",
  bank: "create a bank",
};

/**
 * Home's one-line summary: how many things wait; with none, the first steps left while the
 * user has no bank ("Get started: add a source, then install a template, then create a bank.");
 * only then that nothing needs their attention.
 */
export function homeSummary(waiting: number, steps: { step: FirstStep; done: boolean }[] | null): string {
  if (waiting > 0) return `${plural(waiting, "thing needs", "things need")} your attention.`;
  const left = (steps ?? []).filter((s) => !s.done).map((s) => STEP_WORDS[s.step]);
  if (left.length > 0) return `Get started: ${left.join(", then ")}.`;
  return "Nothing needs your attention.";
}
