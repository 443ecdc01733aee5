import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

// What the accessibility check holds a page to: WCAG 2.0–2.2 A and AA (axe tags these
// rules), failing on serious and critical findings; and the landmark rules, which axe files
// under best practice at a moderate impact: one main landmark, at the top level, with all
// content inside landmarks, is what lets screen-reader users jump around a page. Axe runs only
// those rules (runOnly), not every rule to filter afterwards. They include two that axe's
// default run leaves out: target-size (WCAG 2.2 AA) and landmark-complementary-is-top-level.
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];
const LANDMARK_RULES = [
  "landmark-one-main",
  "landmark-no-duplicate-main",
  "landmark-main-is-top-level",
  "landmark-no-duplicate-banner",
  "landmark-no-duplicate-contentinfo",
  "landmark-banner-is-top-level",
  "landmark-contentinfo-is-top-level",
  "landmark-complementary-is-top-level",
  "landmark-unique",
  "region",
];
const FAILING_IMPACTS = new Set(["serious", "critical"]);
/** Only the rules of this axe category (color-contrast, link-in-text-block) can find something in one colour scheme and not the other. */
const COLOUR = "cat.color";

/** Where a page was checked, for naming what failed there. */
export interface CheckedView {
  path: string;
  width: number;
  scheme: "light" | "dark";
  /** A state of the page beyond its URL ("navigation open"). */
  state?: string;
}

/**
 * Runs axe on the page as it is, with the rules of the WCAG tags and the landmark rules, and
 * returns one readable line per failing rule:
 * `page (state) @ width scheme: rule (impact) what it means → targets`.
 */
export async function axeFindings(page: Page, view: CheckedView): Promise<string[]> {
  return failures(await analyze(page), view);
}

/**
 * Checks the page as it is now in both colour schemes: in the light one with every rule above,
 * then, switched to the dark one on the same state (no reload, the same dialog open), with those
 * of them that measure colour, the only ones that can find something in one scheme and not the
 * other; then back to light. Waits until the page is still before each (`settle`: the page must
 * be watched by `watchSettling`). Returns what failed, as `axeFindings` does.
 */
export async function axeFindingsInBothSchemes(page: Page, view: Omit<CheckedView, "scheme">, { idle = true } = {}): Promise<string[]> {
  await settle(page, { idle });
  const light = await analyze(page);
  // Every rule that ran is in one of these (some in two), with its tags.
  const ran = [...light.passes, ...light.violations, ...light.incomplete, ...light.inapplicable];
  await colourScheme(page, "dark");
  await settle(page, { idle });
  const dark = await analyze(page, [...new Set(ran.filter((rule) => rule.tags.includes(COLOUR)).map((rule) => rule.id))]);
  // Back to light for what the test does next; the next check waits for the page to be still.
  await colourScheme(page, "light");
  return [...failures(light, { ...view, scheme: "light" }), ...failures(dark, { ...view, scheme: "dark" })];
}

/** The landmark rules, run beside the WCAG tags (`rules` adds to `runOnly` tags). */
const LANDMARKS_ON = Object.fromEntries(LANDMARK_RULES.map((rule) => [rule, { enabled: true }]));

/**
 * Runs axe on the page: `rules`, or those of the WCAG tags and the landmark rules. In legacy mode,
 * in the page itself: the default opens a blank page for every check to merge the results of the
 * page's frames, and the console has none. AxeBuilder evaluates axe's source (half a megabyte)
 * before every run; it is given only to a page that has no axe yet.
 */
async function analyze(page: Page, rules?: string[]) {
  const injected = await page.evaluate(() => "axe" in window);
  const builder = new AxeBuilder({ page, axeSource: injected ? ";" : undefined }).setLegacyMode();
  // Passes, incomplete and inapplicable results name their rule and one node (what was checked), not every node.
  const resultTypes: RunOptions["resultTypes"] = ["violations"];
  const checking = rules
    ? builder.options({ resultTypes }).withRules(rules)
    : builder.options({ resultTypes, rules: LANDMARKS_ON }).withTags(WCAG_TAGS);
  return checking.analyze();
}
type AxeResults = Awaited<ReturnType<typeof analyze>>;
type RunOptions = Parameters<AxeBuilder["options"]>[0];

/** The console follows the system's colour scheme until someone picks one (defaultColorScheme "auto"). */
async function colourScheme(page: Page, scheme: "light" | "dark") {
  await page.emulateMedia({ colorScheme: scheme });
  await page.locator(`html[data-mantine-color-scheme="${scheme}"]`).waitFor({ state: "attached" });
}

/** The findings that fail a view, as readable lines. */
function failures(results: AxeResults, view: CheckedView): string[] {
  const where = `${view.path}${view.state ? ` (${view.state})` : ""} @ ${view.width}px ${view.scheme}`;
  return results.violations
    .filter((v) => LANDMARK_RULES.includes(v.id) || (v.tags.some((tag) => WCAG_TAGS.includes(tag)) && FAILING_IMPACTS.has(v.impact ?? "")))
    .map((v) => {
      const targets = v.nodes.slice(0, 5).map((node) => `${node.target.join(" ")}${contrastOf(node.any)}`);
      const more = v.nodes.length > 5 ? ` …and ${v.nodes.length - 5} more` : "";
      return `${where}: ${v.id} (${v.impact}) ${v.help} → ${targets.join(" | ")}${more}`;
    });
}

/** For a contrast finding, the colours and ratio axe measured: " (#868e96 on #ffffff, 3.32:1)". */
function contrastOf(checks: { id: string; data?: unknown }[]): string {
  const data = checks.find((check) => check.id === "color-contrast")?.data as
    | { fgColor?: string; bgColor?: string; contrastRatio?: number }
    | undefined;
  return data?.fgColor ? ` (${data.fgColor} on ${data.bgColor}, ${data.contrastRatio}:1)` : "";
}

/** What the page keeps for `settle`: requests in flight, DOM changes so far, and for the current wait the changes seen and frames found still in a row. */
interface Probe {
  requests: number;
  changes: number;
  wait: number;
  seenChanges: number;
  stillFrames: number;
}

/**
 * Counts, in the page, the fetch and XHR requests in flight (but prefetches) and every change of the DOM, from
 * before the console's scripts run: what `settle` waits on. Call once per page, before it loads.
 */
export async function watchSettling(page: Page) {
  await page.addInitScript(() => {
    const probe: Probe = { requests: 0, changes: 0, wait: 0, seenChanges: 0, stillFrames: 0 };
    (window as unknown as { a11yProbe: Probe }).a11yProbe = probe;
    const fetch = window.fetch;
    window.fetch = (...args) => {
      // Next's prefetches of the pages that links lead to change nothing on this one.
      if (new Headers(args[1]?.headers).has("next-router-prefetch")) return fetch(...args);
      probe.requests++;
      return fetch(...args).finally(() => probe.requests--);
    };
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (...args) {
      probe.requests++;
      this.addEventListener("loadend", () => probe.requests--, { once: true });
      send.apply(this, args);
    };
    new MutationObserver(() => probe.changes++).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
}

/** Animation frames in a row that the page must be found still in. */
const STILL_FRAMES = 3;
/** Tells one wait from the previous in the page's probe. */
let waits = 0;

/**
 * Waits until the page is still, checked on every animation frame: no request in flight (unless
 * `idle` is false, while a request is held on purpose), no Mantine loader showing, no transition
 * or finite animation running, and no change to the DOM — all for STILL_FRAMES frames in a row.
 * A running transition or finite animation is finished at once (Mantine's ignore reduced motion
 * unless the theme says otherwise): what is checked is where it ends.
 */
export async function settle(page: Page, { idle = true } = {}) {
  await page.waitForFunction(
    ({ idle, frames, wait }) => {
      const probe = (window as unknown as { a11yProbe: Probe }).a11yProbe;
      if (probe.wait !== wait) Object.assign(probe, { wait, stillFrames: 0, seenChanges: probe.changes });
      const loading = [...document.querySelectorAll(".mantine-Loader-root")].some((loader) => loader.checkVisibility());
      const moving = document
        .getAnimations()
        .filter((animation) => animation.playState === "running" && animation.effect?.getComputedTiming().iterations !== Infinity);
      for (const animation of moving) animation.finish();
      const still = !(idle && probe.requests > 0) && !loading && moving.length === 0 && probe.changes === probe.seenChanges;
      probe.seenChanges = probe.changes;
      probe.stillFrames = still ? probe.stillFrames + 1 : 0;
      return probe.stillFrames >= frames;
    },
    { idle, frames: STILL_FRAMES, wait: ++waits },
  );
}
