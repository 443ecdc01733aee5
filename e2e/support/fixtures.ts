import { mkdirSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type Page, type Response } from "@playwright/test";
import { newLinesWithCredentials } from "./server-log";

export { expect };

/**
 * Watches a page for trouble the user would not see: Chromium console errors, uncaught
 * exceptions, and same-origin requests that failed. Steps that provoke an error on purpose
 * (a 409 on a duplicate) declare it with `expectError(pattern)`; anything else fails the test.
 */
export interface PageWatch {
  expectError(pattern: RegExp): void;
}

/**
 * Waits until React has taken over the page just loaded: server-rendered buttons are visible,
 * and clickable, before their handlers exist. Hydration marks each element it takes over with
 * React's `__reactFiber$…` key, the body after everything in it; a click after that reaches a
 * handler (one during the last step is replayed by React). No app code is needed for it.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => Object.keys(document.body).some((key) => key.startsWith("__reactFiber$")));
}

const isPage = (response: Response | null) => response?.headers()["content-type"]?.startsWith("text/html") ?? false;

export const test = base.extend<{ watch: PageWatch; serverLogScan: undefined }>({
  // Every page a test loads is hydrated before the test's next step (waitForHydration).
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (...args) => {
      const response = await goto(...args);
      if (isPage(response)) await waitForHydration(page);
      return response;
    };
    page.reload = async (...args) => {
      const response = await reload(...args);
      if (isPage(response)) await waitForHydration(page);
      return response;
    };
    await use(page);
  },
  watch: [
    async ({ page, baseURL }, use) => {
      const problems: string[] = [];
      const expected: RegExp[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console error: ${message.text()} (${message.location().url})`);
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      page.on("response", (response) => {
        if (response.status() >= 400 && response.url().startsWith(baseURL!)) {
          problems.push(`request failed: ${response.request().method()} ${response.url()} → ${response.status()}`);
        }
      });
      page.on("requestfailed", (request) => {
        // Navigations cancel the previous page's requests (RSC prefetches): not a failure.
        if (request.failure()?.errorText !== "net::ERR_ABORTED") {
          problems.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`);
        }
      });
      await use({ expectError: (pattern) => expected.push(pattern) });
      const unexpected = problems.filter((p) => !expected.some((pattern) => pattern.test(p)));
      expect(unexpected, "the page logged errors or made failing requests").toEqual([]);
    },
    { auto: true },
  ],
  // After every test, the server's new log lines hold no credential (server-log.ts).
  serverLogScan: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this destructuring; it has none.
    async ({}, use) => {
      await use(undefined);
      expect(newLinesWithCredentials(), "server log lines holding a credential").toEqual([]);
    },
    { auto: true },
  ],
});

const SCREENSHOTS = path.join(__dirname, "..", "screenshots");
/**
 * Whether the pictures are taken: on a developer's run, which refreshes the README's; not in CI,
 * whose fresh clone throws them away (about 140 full-page pictures, minutes of a 2-core runner),
 * unless E2E_SCREENSHOTS=1 asks for them.
 */
const TAKE_SCREENSHOTS = process.env.E2E_SCREENSHOTS === "1" || !process.env.CI;
export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

/**
 * Saves the whole page as e2e/screenshots/{name}-{width}.png (the folder docs/console.md and docs/lifecycle.md show),
 * from the top: typing in an editor scrolls the page, and the fixed header belongs at the top.
 */
export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? DESKTOP.width;
  await page.evaluate(() => window.scrollTo(0, 0));
  // Let fonts, transitions and the theme settle so pictures are stable between runs.
  await page.mouse.move(1, 1); // no hover tooltips in the picture
  if (!TAKE_SCREENSHOTS) return;
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true, animations: "disabled" });
}

/** Takes the screenshot at 390 px too, then returns to 1280 px. */
export async function screenshotBoth(page: Page, name: string) {
  await screenshot(page, name);
  // Without pictures, the two resizes would only lay the page out twice more.
  if (!TAKE_SCREENSHOTS) return;
  await page.setViewportSize(MOBILE);
  await screenshot(page, name);
  await page.setViewportSize(DESKTOP);
}

/** A dialog or drawer as the viewport shows it (a full-page picture would show the page running on below it). */
export async function overlayScreenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? DESKTOP.width;
  await page.mouse.move(1, 1);
  if (!TAKE_SCREENSHOTS) return;
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), animations: "disabled" });
}
