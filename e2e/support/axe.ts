import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

// What the accessibility check holds a page to: WCAG 2.0–2.2 A and AA (axe tags these
// rules), failing on serious and critical findings; and the landmark rules, which axe files
// under best practice at a moderate impact: one main landmark, at the top level, with all
// content inside landmarks, is what lets screen-reader users jump around a page.
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];
const LANDMARK_RULES = new Set([
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
]);
const FAILING_IMPACTS = new Set(["serious", "critical"]);

/** Where a page was checked, for naming what failed there. */
export interface CheckedView {
  path: string;
  width: number;
  scheme: "light" | "dark";
  /** A state of the page beyond its URL ("navigation open"). */
  state?: string;
}

/**
 * Runs axe on the page as it is and returns one readable line per failing rule:
 * `page @ width scheme: rule (impact) what it means → targets`.
 */
export async function axeFindings(page: Page, view: CheckedView): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  const where = `${view.path}${view.state ? ` (${view.state})` : ""} @ ${view.width}px ${view.scheme}`;
  return results.violations
    .filter((v) => LANDMARK_RULES.has(v.id) || (v.tags.some((tag) => WCAG_TAGS.includes(tag)) && FAILING_IMPACTS.has(v.impact ?? "")))
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
