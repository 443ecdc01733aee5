import { type APIRequestContext, request as apiRequest, type Locator, type Page } from "@playwright/test";
import { createFreshUser, deleteBankIfPresent, deleteIfPresent, expectOk } from "./support/api";
import { field } from "./support/bank-steps";
import { pageHeading, signIn } from "./support/console";
import { E2E_ADMIN_TOKEN, E2E_BASE_URL } from "./support/env";
import { DESKTOP, expect, MOBILE, test } from "./support/fixtures";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";
import { catalogCard, confirmTemplateDelete, installFromMarketplace, openCatalog, templateRow } from "./support/template-steps";

// Issue 23's narrow screens, the Marketplace's installed state and small fixes: admin nadia's
// Marketplace links a server template instead of offering Install again, and so does member
// nils' Marketplace, where he can still install a copy of his own from the preview; at 390 px a
// template row's Update and Delete are reached through its actions menu and the audit log
// needs no sideways scrolling; a rollback's version says which version it restored; the apply
// preview prints a list value indented; the template picker closes when a template is
// chosen and when Preview runs; a bank's config key stays on one line at 1280 px. That nothing on
// any page sticks out sideways is measured with every view a11y.spec.ts checks (support/sideways.ts).
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
