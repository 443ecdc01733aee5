import { type APIRequestContext, request as apiRequest, type Page } from "@playwright/test";
import { createFreshUser, deleteBankIfPresent, deleteIfPresent, expectOk } from "./support/api";
import { consoleNav, pageHeading, signIn } from "./support/console";
import { E2E_ADMIN_TOKEN, E2E_BASE_URL } from "./support/env";
import { expect, screenshot, screenshotBoth, test } from "./support/fixtures";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";
import { openTemplates, templateRow } from "./support/template-steps";

// The template lifecycle as a member meets it: server templates published by an admin, read
// and used to create a bank; update status that lasts across reloads and counts in the
// navigation; "Update all" with its progress and an honest summary.
test.describe.configure({ mode: "serial" });

const LENA = { id: "lena", password: "lena's long e2e password" };
const market = new E2eMarketplace();
let admin: APIRequestContext;
let lena: APIRequestContext;

const entry = (id: string, name: string, directive: string): CatalogEntry => ({
  id,
  name,
  description: `${name}, for the lifecycle tests.`,
  category: "lifecycle",
  integrations: ["slack"],
  tags: ["lifecycle"],
  manifest: e2eManifest({ directives: [{ name: "Rule", content: directive }] }),
});
const MEMBER_TEMPLATES = ["notes-a", "notes-b", "notes-c"];
const memberCatalog = (edition: string) =>
  MEMBER_TEMPLATES.map((id) => entry(id, `Notes ${id.slice(-1).toUpperCase()}`, `Edition ${edition}.`));

/** The count beside Templates in the navigation: digits to see, a description to hear. */
async function expectNavCount(page: Page, count: number, description: string) {
  await expect(consoleNav(page).getByTestId("nav-update-count")).toHaveText(String(count));
  await expect(consoleNav(page).getByRole("link", { name: "Templates", exact: true })).toHaveAccessibleDescription(description);
}

test.beforeAll(async () => {
  await market.start();
  market.setCatalog("published", [entry("handbook", "Team handbook", "Quote the handbook.")]);
  market.setCatalog("mine", memberCatalog("one"));
  admin = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  // A clean slate: a CI retry runs the whole serial file again on the same data.
  await deleteBankIfPresent(admin, "lena-handbook");
  await deleteIfPresent(admin, "/ext/svc/admin/templates/handbook");
  await deleteIfPresent(admin, "/ext/svc/admin/template-sources/published");
  await createFreshUser(admin, { id: LENA.id, display_name: "Lena", password: LENA.password });
  const key = (await (
    await expectOk(await admin.post(`/ext/svc/admin/users/${LENA.id}/api-keys`, { data: { description: "e2e" } }))
  ).json()) as {
    token: string;
  };
  lena = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${key.token}` } });

  // The admin publishes a server template; lena installs three of her own and edits one.
  await expectOk(await admin.post("/ext/svc/admin/template-sources", { data: { url: market.sourceUrl("published"), alias: "published" } }));
  await expectOk(await admin.post("/ext/svc/admin/templates/handbook/install", { data: { source_name: "published" } }));
  await expectOk(await lena.post("/ext/svc/me/template-sources", { data: { url: market.sourceUrl("mine"), alias: "mine" } }));
  for (const id of MEMBER_TEMPLATES)
    await expectOk(await lena.post(`/ext/svc/me/templates/${id}/install`, { data: { source_name: "mine" } }));
  await expectOk(await lena.patch("/ext/svc/me/templates/notes-c", { data: { description: "Edited by Lena." } }));
});

// What the admin published would show in later specs' marketplaces and template lists.
test.afterAll(async () => {
  await admin.delete("/ext/svc/banks/lena-handbook");
  await admin.delete("/ext/svc/admin/templates/handbook");
  await admin.delete("/ext/svc/admin/template-sources/published");
  await admin.delete(`/ext/svc/admin/users/${LENA.id}`);
  await Promise.all([admin.dispose(), lena.dispose(), market.stop()]);
});

test("a member browses the server's templates read-only and creates a bank from one", async ({ page }) => {
  await signIn(page, LENA.id, LENA.password);
  await openTemplates(page);
  await page
    .locator("label")
    .filter({ hasText: /^Server$/ })
    .click();
  await expect(page).toHaveURL(/\/templates\?scope=server$/);
  const row = templateRow(page, "handbook");
  await expect(row).toContainText("Team handbook");
  await expect(row).toContainText("published");
  // Read-only: no update state, no delete, no new template.
  await expect(page.getByRole("button", { name: "Delete template handbook" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "New template" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Check all for updates" })).toHaveCount(0);
  await screenshot(page, "templates-server-member");

  // Its page shows what it holds, without the editor.
  await row.getByRole("link", { name: "handbook", exact: true }).click();
  await expect(pageHeading(page, "Team handbook")).toBeVisible();
  await expect(page.getByTestId("template-manifest")).toContainText('"content": "Quote the handbook."');
  await expect(page.getByRole("form", { name: "Edit template handbook" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete template" })).toHaveCount(0);

  // "Create a bank from it" opens the new-bank form with the template chosen.
  await page.getByRole("link", { name: "Create a bank from it" }).click();
  await expect(pageHeading(page, "New bank")).toBeVisible();
  const form = page.getByRole("form", { name: "New bank" });
  await expect(form.getByRole("combobox", { name: "Template" })).toHaveValue("server/handbook");
  await form.getByRole("textbox", { name: "Bank id" }).fill("lena-handbook");
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("import-preview")).toContainText("Bank lena-handbook does not exist yet");
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page).toHaveURL(/\/banks\/lena-handbook$/);
  await expect(page.getByTestId("bank-provenance")).toContainText("Templateserver/handbook");

  // The picker offers server templates to members too.
  await page.goto("/banks/new");
  await page.getByRole("form", { name: "New bank" }).getByRole("combobox", { name: "Template" }).click();
  await expect(page.getByRole("option", { name: /server\/handbook/ })).toBeVisible();
  await expect(page.getByRole("option", { name: /personal\/notes-a/ })).toBeVisible();
  await page.keyboard.press("Escape");

  // Admin pages stay closed.
  await page.goto("/admin/users");
  await expect(pageHeading(page, "Administrators only")).toBeVisible();
});

test("update badges come from the stored status: they survive a reload and count in the navigation", async ({ page }) => {
  market.setCatalog("mine", memberCatalog("two"));
  await signIn(page, LENA.id, LENA.password);
  await openTemplates(page);
  // (The scheduled check may have seen the change already: the bulk check below is what is asserted.)
  await page.getByRole("button", { name: "Check all for updates" }).click();
  await expect(page.getByTestId("check-report")).toContainText("Checked 3 templates");
  await expect(page.getByTestId("check-report")).toContainText("3 have updates, 0 up to date");
  for (const id of MEMBER_TEMPLATES) await expect(templateRow(page, id).getByText("Update available")).toBeVisible();
  await expectNavCount(page, 3, "3 templates with updates");

  await page.reload();
  await expect(pageHeading(page, "Templates")).toBeVisible();
  for (const id of MEMBER_TEMPLATES) await expect(templateRow(page, id).getByText("Update available")).toBeVisible();
  await expect(page.getByTestId("updates-summary")).toContainText("3 templates have updates waiting");
  await expectNavCount(page, 3, "3 templates with updates");
  await screenshotBoth(page, "templates-updates-waiting");
});

test("Update all shows its progress, then what it updated, skipped and why", async ({ page }) => {
  await signIn(page, LENA.id, LENA.password);
  await openTemplates(page);
  // The updates wait until the progress was seen (a busy machine could otherwise finish both first).
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/ext/svc/me/templates/*/update?*", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("button", { name: "Update all" }).click();
  // It asks first, listing what would change (e2e/bulk-update.spec.ts looks closer).
  const confirmAll = page.getByRole("dialog", { name: "Update 3 templates from their sources?" });
  await confirmAll.getByRole("button", { name: "Update 2 templates" }).click();
  const progress = page.getByTestId("update-progress");
  // notes-c has local edits: skipped without a request, so two are updated.
  await expect(progress).toContainText(/Updating templates: [01] of 2/);
  await expect(progress.getByRole("progressbar", { name: "Updates" })).toHaveAttribute("aria-valuemax", "2");
  await screenshot(page, "templates-update-all-progress");
  release();

  const report = page.getByTestId("update-all-report");
  await expect(report).toContainText("Update all: 2 updated, 0 already up to date, 1 skipped for local edits");
  await expect(report.getByRole("listitem").filter({ hasText: "notes-a" })).toContainText("to revision");
  await expect(report.getByRole("listitem").filter({ hasText: "notes-c" })).toContainText("has local edits");
  await expect(templateRow(page, "notes-a").getByText("Up to date")).toBeVisible();
  await expect(templateRow(page, "notes-c").getByText("Update available")).toBeVisible();
  await expectNavCount(page, 1, "1 template with an update");
  await screenshot(page, "templates-update-all-report");

  // The skipped one, on request and after confirming, has its edits replaced.
  await report.getByRole("button", { name: "Replace local edits in 1 template" }).click();
  const confirm = page.getByRole("dialog", { name: "Replace local edits?" });
  await expect(confirm).toContainText("notes-c was edited here");
  await confirm.getByRole("button", { name: "Replace local edits and update" }).click();
  await expect(report).toContainText("Update all: 3 updated, 0 already up to date");
  await expect(templateRow(page, "notes-c").getByText("Up to date")).toBeVisible();
  await expect(templateRow(page, "notes-c")).not.toContainText("Edited locally");
  await expect(consoleNav(page).getByTestId("nav-update-count")).toHaveCount(0);

  // Nothing left: a second run says so.
  await page.unroute("**/ext/svc/me/templates/*/update?*");
  await page.getByRole("button", { name: "Update all" }).click();
  await expect(report).toContainText("Update all: 0 updated, 3 already up to date");
  await expect(report).toContainText("Nothing to update.");
});
