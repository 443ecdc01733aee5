import { readdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";

// Nothing sticks out sideways (issue 33, item 5): a11y.spec.ts measures every view it checks, on
// every console page, at 390 and 1280 px, with rows in its tables and its badges showing. What is
// measured, in the page:
// - the page itself is no wider than the window;
// - a table is no wider than its box, unless that box scrolls and shows that it does (a shade on
//   the side with more: ScrollRegion's data-scrolls-sideways);
// - no badge, button, link, tab or field is cut off: its own text clipped (scrollWidth past
//   clientWidth, an ellipsis), or its box reaching past the box that clips it or the window.

/** The routes of the pages below `dir`: one per page.tsx, as its folders name it. */
function pageRoutes(dir: string, route = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return pageRoutes(path.join(dir, entry.name), `${route}/${entry.name}`);
    return entry.name === "page.tsx" ? [route || "/"] : [];
  });
}
/** The console's routes: app/(console)'s pages and Home (app/(home), the landing page when signed out). */
export const consoleRoutes = () => ["(home)", "(console)"].flatMap((group) => pageRoutes(path.join(__dirname, "..", "..", "app", group)));

/** What sticks out sideways on the page as it is now, one line each; none when nothing does. */
export function sidewaysProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const name = (el: Element) => {
      const testId = el.getAttribute("data-testid") ?? el.closest("[data-testid]")?.getAttribute("data-testid");
      const text = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 50);
      return `${el.tagName.toLowerCase()}.${[...el.classList].find((c) => c.startsWith("mantine-")) ?? ""} "${text}"${testId ? ` in ${testId}` : ""}`;
    };
    const shown = (el: Element) => el.checkVisibility({ visibilityProperty: true }) && el.getBoundingClientRect().width > 1;
    /** The nearest box that clips its content sideways (hidden, clip, auto or scroll), if any. */
    const clipper = (el: Element) => {
      for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== "visible") return box;
      }
      return null;
    };
    const scrollsVisibly = (box: Element) => box.closest("[data-scrolls-sideways]") !== null;

    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) problems.push(`the page is ${root.scrollWidth - root.clientWidth}px wider than the window`);

    for (const table of document.querySelectorAll("main table")) {
      if (!shown(table)) continue;
      const box = table.parentElement!;
      const over = Math.round(table.getBoundingClientRect().width - box.clientWidth);
      if (over > 0 && !scrollsVisibly(box)) problems.push(`${name(table)} is ${over}px wider than its box, which does not show it scrolls`);
    }

    const controls = "button, a, input, select, textarea, [role=tab], .mantine-Badge-root, .mantine-Badge-label, .mantine-Button-label";
    for (const el of document.querySelectorAll(`main :is(${controls}), header :is(${controls})`)) {
      if (!shown(el) || el.closest("[aria-hidden=true], [inert]")) continue;
      // A text field scrolls a value longer than itself, as fields do: only its box is measured.
      const field = el.matches("input, select, textarea");
      if (!field && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible") {
        problems.push(`${name(el)} is clipped: ${el.scrollWidth - el.clientWidth}px of its text cut off`);
        continue;
      }
      const box = clipper(el);
      // Inside a box that shows it scrolls sideways, what lies past its edge is a scroll away.
      if (box && scrollsVisibly(box)) continue;
      const rect = el.getBoundingClientRect();
      if (rect.right > root.clientWidth + 1 || rect.left < -1) {
        // The outermost box that reaches as far: what to make narrower.
        let widest: Element = el;
        for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
          if (box.getBoundingClientRect().right > root.clientWidth + 1) widest = box;
        }
        const span = `${Math.round(rect.left)} to ${Math.round(rect.right)} px`;
        problems.push(`${name(el)} reaches past the window (${span}), as does its box ${name(widest)}`);
        continue;
      }
      if (!box) continue;
      const bounds = box.getBoundingClientRect();
      if (rect.right > bounds.right + 1 || rect.left < bounds.left - 1) {
        problems.push(`${name(el)} is cut off by its box ${name(box)}`);
      }
    }
    return problems;
  });
}
