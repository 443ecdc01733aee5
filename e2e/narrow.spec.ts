import { readdirSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, request as apiRequest, type Locator, type Page } from "@playwright/test";
import { createFreshUser, deleteBankIfPresent, deleteIfPresent, expectOk } from "./support/api";
import { settle, watchSettling } from "./support/axe";
import { field } from "./support/bank-steps";
import { pageHeading, signIn } from "./support/console";
import { E2E_ADMIN_TOKEN, E2E_BASE_URL } from "./support/env";
import { DESKTOP, expect, MOBILE, screenshot, test } from "./support/fixtures";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";
import { catalogCard, confirmTemplateDelete, installFromMarketplace, openCatalog, templateRow } from "./support/template-steps";

// Issue 23's narrow screens, the Marketplace's installed state and small fixes: admin nadia's
// Marketplace links a server template instead of offering Install again, and so does member
// nils' Marketplace, where he can still install a copy of his own from the preview; at 390 px a
// template row's Update and Delete are reached through its actions menu and the audit log
// needs no sideways scrolling; a rollback's version says which version it restored; the apply
// preview prints a list value indented; the template picker closes when a template is
// chosen and when Preview runs; a bank's config key stays on one line at 1280 px.
test.describe.configure({ mode: "serial" });

const NADIA = { id: "nadia", password: "nadia's long e2e password" };
const NILS = { id: "nils", password: "nils's long e2e password" };
const SOURCE = "narrow-hub";
const INSTALLED = "desk-guide";
const NOT_INSTALLED = "field-notes";
const NOTES = "narrow-notes";
const TOOLING = "narrow-tooling";
const BANK = "narrow-bank";
const market = new E2eMarketplace();

const entry = (id: string, name: string, directive: string): CatalogEntry => ({
  id,
  name,
  description: `${name} for the narrow-screen checks.`,
  category: "support",
  manifest: e2eManifest({ directives: [{ name: "Be kind", content: directive }] }),
});
const catalog = (edition: string) => [
  entry(INSTALLED, "Desk guide", `Answer warmly (${edition}).`),
  entry(NOT_INSTALLED, "Field notes", "Write down what was seen."),
];

let admin: APIRequestContext;
let nadia: APIRequestContext;

test.beforeAll(async () => {
  await market.start();
  market.setCatalog(SOURCE, catalog("first"));
  admin = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  // A clean slate: a CI retry runs the whole serial file again on the same data.
  await deleteBankIfPresent(admin, BANK);
  await deleteIfPresent(admin, `/ext/svc/admin/templates/${INSTALLED}`);
  await deleteIfPresent(admin, `/ext/svc/admin/template-sources/${SOURCE}`);
  await createFreshUser(admin, { id: NADIA.id, display_name: "Nadia", password: NADIA.password, role: "admin" });
  await createFreshUser(admin, { id: NILS.id, display_name: "Nils", password: NILS.password, role: "member" });
  const key = await expectOk(await admin.post(`/ext/svc/admin/users/${NADIA.id}/api-keys`, { data: { description: "narrow setup" } }));
  nadia = await apiRequest.newContext({
    baseURL: E2E_BASE_URL,
    extraHTTPHeaders: { authorization: `Bearer ${((await key.json()) as { token: string }).token}` },
  });
  await expectOk(await nadia.post("/ext/svc/admin/template-sources", { data: { url: market.sourceUrl(SOURCE), alias: SOURCE } }));
  await expectOk(
    await nadia.post(`/ext/svc/admin/templates/${INSTALLED}/install`, { data: { source_name: SOURCE, source_scope: "server" } }),
  );
});

// Later specs expect an empty server: remove what this one made. (Nadia's and Nils's personal templates go with them.)
test.afterAll(async () => {
  if (admin) await deleteBankIfPresent(admin, BANK);
  await admin?.delete(`/ext/svc/admin/templates/${INSTALLED}`);
  await admin?.delete(`/ext/svc/admin/template-sources/${SOURCE}`);
  await admin?.delete(`/ext/svc/admin/template-sources/${BROKEN}`);
  await admin?.delete(`/ext/svc/admin/users/${NADIA.id}`);
  await admin?.delete(`/ext/svc/admin/users/${NILS.id}`);
  await Promise.all([admin?.dispose(), nadia?.dispose(), market.stop()]);
});

/** How far the element's content reaches past its box sideways, in pixels (0 or less: no sideways scrolling). */
const sidewaysOverflow = (element: Locator) => element.evaluate((e) => e.scrollWidth - e.clientWidth);
/** The same for the whole page. */
const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test("the Marketplace says where an entry is installed on the server, instead of offering Install again", async ({ page }) => {
  await signIn(page, NADIA.id, NADIA.password);
  await page.goto("/marketplace?into=server");
  await expect(pageHeading(page, "Marketplace")).toBeVisible();
  const panel = page.getByRole("tabpanel", { name: SOURCE });
  await expect(panel.getByTestId("catalog-count")).toHaveText("2 templates");

  const installed = catalogCard(panel, INSTALLED);
  await expect(installed.getByText("Installed", { exact: true })).toBeVisible();
  await expect(installed.getByTestId("installed-as")).toHaveText(`Installed as server/${INSTALLED}`);
  await expect(installed.getByRole("button", { name: /^Install / })).toHaveCount(0);
  // The one not installed yet still offers Install.
  await expect(catalogCard(panel, NOT_INSTALLED).getByRole("button", { name: "Install Field notes" })).toBeEnabled();
  await expect(catalogCard(panel, NOT_INSTALLED).getByTestId("installed-as")).toHaveCount(0);

  await installed.getByRole("link", { name: `server/${INSTALLED}` }).click();
  await expect(page).toHaveURL(new RegExp(`/templates/server/${INSTALLED}$`));
  await expect(pageHeading(page, "Desk guide")).toBeVisible();
});

test("a member sees where the server installed an entry instead of Install, and still installs a copy of his own", async ({ page }) => {
  await signIn(page, NILS.id, NILS.password);
  const panel = await openCatalog(page, SOURCE);
  await expect(panel.getByTestId("catalog-count")).toHaveText("2 templates");
  const installed = catalogCard(panel, INSTALLED);
  await expect(installed.getByText("Installed", { exact: true })).toBeVisible();
  await expect(installed.getByTestId("installed-as")).toHaveText(`Installed as server/${INSTALLED}`);
  await expect(installed.getByRole("link", { name: `server/${INSTALLED}` })).toHaveAttribute("href", `/templates/server/${INSTALLED}`);
  await expect(catalogCard(panel, NOT_INSTALLED).getByRole("button", { name: "Install Field notes" })).toBeEnabled();

  // The preview installs his own copy ("Install again"); the card then names both.
  await installFromMarketplace(page, { source: SOURCE, templateId: INSTALLED, again: true });
  await expect(installed.getByTestId("installed-as")).toHaveText(`Installed as personal/${INSTALLED}, server/${INSTALLED}`);

  // The server's template is his to read.
  await installed.getByRole("link", { name: `server/${INSTALLED}` }).click();
  await expect(page).toHaveURL(new RegExp(`/templates/server/${INSTALLED}$`));
  await expect(pageHeading(page, "Desk guide")).toBeVisible();
});

test("at 390 px a template row's Update and Delete are reached through its actions menu", async ({ page }) => {
  // A newer edition: the server template has an update waiting.
  market.setCatalog(SOURCE, catalog("second"));
  await expectOk(await nadia.post("/ext/svc/admin/templates/check-updates"));
  await signIn(page, NADIA.id, NADIA.password);
  await page.goto("/templates?scope=server");
  const table = page.getByTestId("templates-table");
  const row = templateRow(page, INSTALLED);
  await expect(row.getByText("Update available")).toBeVisible();
  // At 1280 px the row's own buttons, and no menu.
  await expect(row.getByRole("button", { name: `Update template ${INSTALLED}` })).toBeVisible();
  await expect(row.getByRole("button", { name: `Delete template ${INSTALLED}` })).toBeVisible();
  await expect(row.getByRole("button", { name: `Actions for ${INSTALLED}` })).toBeHidden();

  // At 390 px the buttons fold away into one menu button per row, in view, and nothing scrolls sideways.
  await page.setViewportSize(MOBILE);
  await expect(row.getByRole("button", { name: `Update template ${INSTALLED}` })).toBeHidden();
  await expect(row.getByRole("button", { name: `Delete template ${INSTALLED}` })).toBeHidden();
  const menuButton = row.getByRole("button", { name: `Actions for ${INSTALLED}` });
  await expect(menuButton).toBeInViewport({ ratio: 1 });
  expect(await sidewaysOverflow(table.locator(".."))).toBeLessThanOrEqual(0);

  await menuButton.click();
  const menu = page.getByRole("menu");
  await expect(menu.getByRole("menuitem")).toHaveText(["Update", "Delete"]);
  await menu.getByRole("menuitem", { name: `Update template ${INSTALLED}` }).click();
  const update = page.getByRole("dialog", { name: `Update template ${INSTALLED}?` });
  await update.getByRole("button", { name: "Update", exact: true }).click();
  await expect(update).toBeHidden();
  await expect(row.getByText("Up to date")).toBeVisible();

  // Up to date, the row has Delete alone, which fits as it is.
  await expect(row.getByRole("button", { name: `Actions for ${INSTALLED}` })).toHaveCount(0);
  const remove = row.getByRole("button", { name: `Delete template ${INSTALLED}` });
  await expect(remove).toBeInViewport({ ratio: 1 });
  await remove.click();
  await confirmTemplateDelete(page, INSTALLED);
});

test("at 390 px Delete works from a row's actions menu", async ({ page }) => {
  // Installed again, and behind its source once more: Update and Delete, folded into the menu.
  await expectOk(
    await nadia.post(`/ext/svc/admin/templates/${INSTALLED}/install`, { data: { source_name: SOURCE, source_scope: "server" } }),
  );
  market.setCatalog(SOURCE, catalog("third"));
  await expectOk(await nadia.post("/ext/svc/admin/templates/check-updates"));
  await page.setViewportSize(MOBILE);
  await signIn(page, NADIA.id, NADIA.password);
  await page.goto("/templates?scope=server");
  const row = templateRow(page, INSTALLED);
  await expect(row.getByText("Update available")).toBeVisible();
  const menuButton = row.getByRole("button", { name: `Actions for ${INSTALLED}` });
  await menuButton.click();
  await page
    .getByRole("menu")
    .getByRole("menuitem", { name: `Delete template ${INSTALLED}` })
    .click();
  await confirmTemplateDelete(page, INSTALLED);
});

test("at 390 px the audit log is a list of cards, with no sideways scrolling", async ({ page }) => {
  await page.setViewportSize(MOBILE);
  await signIn(page, NADIA.id, NADIA.password);
  await page.goto(`/admin/audit?actor=${NADIA.id}`);
  await expect(pageHeading(page, "Audit log")).toBeVisible();
  const table = page.getByTestId("audit-table");
  const firstRow = table.locator("tbody tr").first();
  await expect(firstRow).toBeVisible();
  // Each entry is a card: its cells stacked, each under its column's name.
  await expect(firstRow).toHaveCSS("display", "block");
  const who = firstRow.locator("td[data-label='Who']");
  expect(await who.evaluate((td) => getComputedStyle(td, "::before").content)).toBe('"Who"');
  expect(await sidewaysOverflow(table.locator(".."))).toBeLessThanOrEqual(0);
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  // An entry's changes open inside its card.
  await table
    .getByRole("button", { name: /^Show the changes of / })
    .first()
    .click();
  await expect(table.getByTestId("audit-changes")).toBeVisible();
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);

  // At 1280 px it is a table again.
  await page.setViewportSize(DESKTOP);
  await expect(firstRow).toHaveCSS("display", "table-row");
});

test("at 390 px the sources table is a list of cards, with no sideways scrolling", async ({ page }) => {
  await page.setViewportSize(MOBILE);
  await signIn(page, NADIA.id, NADIA.password);
  await page.goto("/sources?scope=server");
  await expect(pageHeading(page, "Template sources")).toBeVisible();
  const table = page.getByTestId("sources-table");
  const row = table.locator("tbody tr").filter({ hasText: SOURCE });
  await expect(row).toHaveCSS("display", "block");
  const url = row.locator("td[data-label='URL']");
  expect(await url.evaluate((td) => getComputedStyle(td, "::before").content)).toBe('"URL"');
  expect(await sidewaysOverflow(table.locator(".."))).toBeLessThanOrEqual(0);
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  // Its Edit and Remove are one menu.
  await expect(row.getByRole("button", { name: `Actions for ${SOURCE}` })).toBeInViewport({ ratio: 1 });
  await page.setViewportSize(DESKTOP);
  await expect(row).toHaveCSS("display", "table-row");
});

test("a rollback's version says which version it restored", async ({ page }) => {
  await expectOk(await nadia.post("/ext/svc/me/templates", { data: { id: NOTES, name: "Narrow notes", manifest: e2eManifest() } }));
  await expectOk(await nadia.patch(`/ext/svc/me/templates/${NOTES}`, { data: { name: "Narrow notes (edited)" } }));
  await expectOk(await nadia.post(`/ext/svc/me/templates/${NOTES}/rollback`, { data: { version: 1 } }));
  const versions = (await (await expectOk(await nadia.get(`/ext/svc/me/templates/${NOTES}/versions`))).json()) as {
    versions: { version: number; action: string; restored_version: number | null }[];
  };
  expect(versions.versions.map((v) => [v.version, v.action, v.restored_version])).toEqual([
    [3, "rollback", 1],
    [2, "patch", null],
    [1, "create", null],
  ]);

  await signIn(page, NADIA.id, NADIA.password);
  await page.goto(`/templates/personal/${NOTES}/versions`);
  await expect(pageHeading(page, `Versions of ${NOTES}`)).toBeVisible();
  await expect(page.getByTestId("version-row-3")).toContainText("Restored version 1");
  await expect(page.getByTestId("version-row-2")).toContainText("Edited");
  await expect(page.getByRole("combobox", { name: "Compare to" }).locator("option", { hasText: "Restored version 1" })).toHaveCount(1);
});

test("the template picker closes when a template is chosen and when Preview runs; a list value previews indented", async ({ page }) => {
  await expectOk(
    await nadia.post("/ext/svc/me/templates", {
      data: {
        id: TOOLING,
        name: "Narrow tooling",
        manifest: e2eManifest({
          bank: {
            disposition_empathy: 4,
            mcp_enabled_tools: ["recall", "retain"],
            retain_mission: "Keep what the field team saw, where and when, and who should hear about it next. ".repeat(4),
          },
        }),
      },
    }),
  );
  await signIn(page, NADIA.id, NADIA.password);
  await page.goto("/banks/new");
  await expect(pageHeading(page, "New bank")).toBeVisible();
  const form = page.getByRole("form", { name: "New bank" });
  await form.getByRole("textbox", { name: "Bank id" }).fill(BANK);
  const picker = field(form, "Template");
  const suggestions = page.getByRole("listbox");

  // Choosing a suggestion closes the list: Preview is not covered.
  await picker.click();
  await picker.pressSequentially("tooling");
  await page.getByRole("option", { name: new RegExp(`personal/${TOOLING}`) }).click();
  await expect(picker).toHaveValue(`personal/${TOOLING}`);
  await expect(suggestions).toBeHidden();
  await expect(picker).toBeFocused(); // the list closed, not the field: focus stays

  // Enter in the field runs Preview, and closes the list too.
  await picker.fill("");
  await picker.pressSequentially(`personal/${TOOLING}`);
  await expect(suggestions).toBeVisible();
  await picker.press("Enter");
  const preview = page.getByTestId("import-preview");
  await expect(preview).toBeVisible();
  await expect(suggestions).toBeHidden();

  // A list value: indented JSON over several lines, not one long line.
  const changes = preview.getByTestId("config-changes");
  await expect(changes.getByRole("listitem").filter({ hasText: "mcp_enabled_tools" }).getByTestId("config-value")).toHaveText(
    '[\n  "recall",\n  "retain"\n]',
  );
  await expect(changes.getByRole("listitem").filter({ hasText: "disposition_empathy" })).toContainText("4");
});

test("at 1280 px a bank's config keys stay on one line", async ({ page }) => {
  await expectOk(
    await nadia.post("/ext/svc/banks", {
      data: { bank_id: BANK, template: `personal/${TOOLING}` },
    }),
  );
  await signIn(page, NADIA.id, NADIA.password);
  await page.goto(`/banks/${BANK}`);
  const config = page.getByTestId("bank-config");
  for (const key of ["disposition_empathy", "mcp_enabled_tools", "retain_mission"]) {
    // The distinct tops of the key's text pieces (it is split where it may break): one line, one top.
    const lines = await config.getByRole("rowheader", { name: key }).evaluate((th) => {
      const tops = new Set<number>();
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
      }
      return tops.size;
    });
    expect(lines, `${key} wraps at 1280 px`).toBe(1);
  }
});

// ---------------------------------------------------------------------------------------------
// Nothing sticks out sideways (issue 33, item 5): every console page, with rows in its tables and
// its badges showing, at 390 and 1280 px. What is measured, in the page:
// - the page itself is no wider than the window;
// - a table is no wider than its box, unless that box scrolls and shows that it does (a shade on
//   the side with more: ScrollRegion's data-scrolls-sideways);
// - no badge, button, link, tab or field is cut off: its own text clipped (scrollWidth past
//   clientWidth, an ellipsis), or its box reaching past the box that clips it or the window.

const BROKEN = "narrow-broken";
const GUIDE = "narrow-guide";
const BOT = "narrow-bot";

/** A concrete URL for each page of the console (its route, as the folders name it). */
const pageUrls = (): Record<string, string[]> => ({
  "/": ["/"],
  "/account": ["/account"],
  "/admin": ["/admin"],
  "/admin/audit": ["/admin/audit"],
  "/admin/sources": ["/admin/sources"],
  "/admin/users": ["/admin/users"],
  "/api-reference": ["/api-reference"],
  "/banks": ["/banks"],
  "/banks/[bank_id]": [`/banks/${BANK}`],
  "/banks/[bank_id]/policy": [`/banks/${BANK}/policy`, `/banks/${BANK}/policy?tab=history`],
  "/banks/new": ["/banks/new"],
  "/marketplace": ["/marketplace", "/marketplace?into=server"],
  "/sources": ["/sources", "/sources?scope=server"],
  "/templates": ["/templates", "/templates?scope=server"],
  "/templates/[scope]": ["/templates/server"],
  "/templates/[scope]/[id]": [`/templates/personal/${GUIDE}`, `/templates/server/${INSTALLED}`],
  "/templates/[scope]/[id]/update": [`/templates/personal/${GUIDE}/update`],
  "/templates/[scope]/[id]/versions": [`/templates/personal/${NOTES}/versions`],
  "/templates/new": ["/templates/new"],
});

/** The routes of the pages below `dir`: one per page.tsx, as its folders name it. */
function pageRoutes(dir: string, route = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return pageRoutes(path.join(dir, entry.name), `${route}/${entry.name}`);
    return entry.name === "page.tsx" ? [route || "/"] : [];
  });
}
/** The console's routes: app/(console)'s pages and Home (app/(home), the landing page when signed out). */
const consoleRoutes = () => ["(home)", "(console)"].flatMap((group) => pageRoutes(path.join(__dirname, "..", "app", group)));

/** What sticks out sideways on the page as it is now, one line each; none when nothing does. */
function sidewaysProblems(page: Page): Promise<string[]> {
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

/** The server fetches the catalog of SOURCE again (it keeps a fresh copy a while). */
const refreshCatalog = async () =>
  expectOk(await nadia.get(`/ext/svc/me/template-sources/${SOURCE}/catalog?source_scope=server&refresh=true`));

test("setup: something in every table and every badge there is", async () => {
  // Every route has its URL here: a new page is measured too.
  expect(Object.keys(pageUrls()).sort()).toEqual(consoleRoutes().sort());

  // A server template edited here with an update waiting; a personal one from a source, edited,
  // with an update, a category and tags; a bank behind its template with a policy changed and
  // restored; a service account with a read-only key about to expire; a server source with a
  // token; a personal source whose marketplace fails.
  await deleteIfPresent(admin, `/ext/svc/admin/templates/${INSTALLED}`);
  await deleteIfPresent(admin, `/ext/svc/admin/template-sources/${BROKEN}`);
  await nadia.delete(`/ext/svc/me/templates/${GUIDE}`);
  await nadia.delete(`/ext/svc/me/template-sources/${BROKEN}`);
  await nadia.delete(`/ext/svc/me/service-accounts/${BOT}`);
  market.setCatalog(SOURCE, [
    { ...entry(INSTALLED, "Desk guide", "Answer warmly (fourth)."), tags: ["front-desk", "customer-support"] },
    {
      ...entry(GUIDE, "Onboarding guide for new support engineers", "Walk through the first week."),
      category: "onboarding",
      tags: ["onboarding", "support-engineering", "first-week"],
    },
  ]);
  market.failCatalog(BROKEN, 500);
  await refreshCatalog();
  await expectOk(
    await nadia.post(`/ext/svc/admin/templates/${INSTALLED}/install`, { data: { source_name: SOURCE, source_scope: "server" } }),
  );
  await expectOk(await nadia.patch(`/ext/svc/admin/templates/${INSTALLED}`, { data: { description: "Edited by Nadia." } }));
  await expectOk(await nadia.post(`/ext/svc/me/templates/${GUIDE}/install`, { data: { source_name: SOURCE, source_scope: "server" } }));
  await expectOk(await nadia.patch(`/ext/svc/me/templates/${GUIDE}`, { data: { description: "Edited by Nadia too." } }));
  market.setCatalog(SOURCE, [
    { ...entry(INSTALLED, "Desk guide", "Answer warmly (fifth)."), tags: ["front-desk", "customer-support"] },
    {
      ...entry(GUIDE, "Onboarding guide for new support engineers", "Walk through the first two weeks."),
      category: "onboarding",
      tags: ["onboarding", "support-engineering", "first-week"],
    },
  ]);
  await expectOk(await nadia.post("/ext/svc/admin/templates/check-updates"));
  await expectOk(await nadia.post("/ext/svc/me/templates/check-updates", { data: {} }));
  // The templates and the bank the tests above made (made here when this test runs alone); the
  // bank made from TOOLING as it is, then a newer version of TOOLING puts it behind.
  for (const id of [NOTES, TOOLING]) {
    const made = await nadia.post("/ext/svc/me/templates", { data: { id, name: `Narrow ${id}`, manifest: e2eManifest() } });
    expect(made.ok() || made.status() === 409, await made.text()).toBe(true);
  }
  await expectOk(await nadia.post("/ext/svc/banks", { data: { bank_id: BANK, template: `personal/${TOOLING}` } }));
  await expectOk(await nadia.patch(`/ext/svc/me/templates/${TOOLING}`, { data: { description: `Version of ${Date.now()}.` } }));
  const policyPath = `/ext/svc/banks/${BANK}/policy`;
  for (const strategy of ["careful", "balanced"]) {
    await expectOk(
      await nadia.put(policyPath, {
        data: {
          document: {
            version: "2026-03-24",
            default_strategy: strategy,
            strategy_overrides: [{ scope: "channel", value: "customer-escalations", strategy: "careful" }],
            public_access: { default: { actions: ["bank:recall"], recall_budget: "low" } },
          },
        },
      }),
    );
  }
  const history = (await (await expectOk(await nadia.get(`/ext/svc/banks/${BANK}/history`))).json()) as {
    entries: { id: string; kind: string }[];
  };
  const firstPolicy = history.entries.filter((e) => e.kind === "policy").at(-1)!;
  await expectOk(await nadia.post(`${policyPath}/restore`, { data: { entry: firstPolicy.id } }));
  await expectOk(await nadia.post("/ext/svc/me/service-accounts", { data: { id: BOT, display_name: "Narrow release pipeline" } }));
  await expectOk(
    await nadia.post(`/ext/svc/me/service-accounts/${BOT}/api-keys`, {
      data: { description: "release pipeline", expires_in_days: 3, scope: "read" },
    }),
  );
  await expectOk(
    await nadia.post("/ext/svc/admin/template-sources", {
      data: { url: market.sourceUrl(BROKEN), alias: BROKEN, auth_token: "narrow-token" },
    }),
  );
  await nadia.post("/ext/svc/me/template-sources", { data: { url: market.sourceUrl(BROKEN), alias: BROKEN } });
});

for (const size of [MOBILE, DESKTOP]) {
  test(`at ${size.width} px no console page sticks out sideways: tables fit or show they scroll, no badge or button is cut off`, async ({
    page,
    watch,
  }) => {
    test.setTimeout(300_000);
    // The personal source's marketplace fails, on purpose.
    watch.expectError(new RegExp(`${BROKEN}.* → 502|status of 502`));
    await page.setViewportSize(size);
    await watchSettling(page);
    await signIn(page, NADIA.id, NADIA.password);
    const problems: string[] = [];
    for (const url of Object.values(pageUrls()).flat()) {
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await settle(page);
      for (const problem of await sidewaysProblems(page)) problems.push(`${url}: ${problem}`);
    }
    expect(problems, problems.join("\n")).toEqual([]);
    // The Templates list with its badges, at this width.
    await page.goto("/templates");
    await expect(templateRow(page, GUIDE).getByText("Update available")).toBeVisible();
    await screenshot(page, "templates-badges");
  });
}
