import { request as apiRequest, type Locator, type Page } from "@playwright/test";
import { ADMIN_HEADERS, apiCall, auditRowsAfter, createFreshUser, deleteIfPresent } from "./support/api";
import { consoleNav, pageHeading, signIn } from "./support/console";
import { E2E_ADMIN_PASSWORD, E2E_ADMIN_TOKEN, E2E_BASE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";
import { addSource, catalogCard } from "./support/template-steps";

// List pages keep their tab, search, filters and page in the URL: a reload shows the same
// filters and the same results, and Back returns to the filter before. The marketplace (source
// tab, search, integration filter), the templates list (scope, search, category, tag) and the
// audit log (actor, action, target, page).
test.describe.configure({ mode: "serial" });

const UMA = { id: "uma", password: "uma's long e2e password" };
const east = new E2eMarketplace();
/** The server templates the tests make: [id, category, tags] for the templates list, then the audit log's and the usage panel's. */
const LISTED = [
  ["url-state-alpha", "urlstate-ops", ["urlstate-a"]],
  ["url-state-beta", "urlstate-ops", ["urlstate-b"]],
  ["url-state-gamma", "urlstate-sales", ["urlstate-a"]],
] as const;
const AUDITED = ["url-audit-1", "url-audit-2"];
const USAGE = "url-usage";

const entry = (id: string, name: string, integrations: string[]): CatalogEntry => ({
  id,
  name,
  description: `${name}, for the URL state test.`,
  category: "engineering",
  integrations,
  tags: [],
  manifest: e2eManifest(),
});

test.beforeAll(async () => {
  await east.start();
  east.setCatalog("east", [
    entry("lint-buddy", "Lint buddy", ["github", "cursor"]),
    entry("deploy-diary", "Deploy diary", ["github"]),
    entry("chat-digest", "Chat digest", ["slack"]),
  ]);
  east.setCatalog("west", [entry("west-notes", "West notes", ["slack"])]);
  const api = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  // A clean slate: a CI retry runs the whole serial file again on the same data. (Uma's sources go with her.)
  await createFreshUser(api, { id: UMA.id, display_name: "Uma", password: UMA.password });
  for (const id of [...LISTED.map(([id]) => id), ...AUDITED, USAGE]) await deleteIfPresent(api, `/ext/svc/admin/templates/${id}`);
  await api.dispose();
});

test.afterAll(() => east.stop());

const cards = (panel: Locator) => panel.getByRole("list", { name: /^Templates in / }).getByRole("listitem");

test("the marketplace keeps its source tab, search and integration filter over a reload, and Back undoes a filter", async ({ page }) => {
  await signIn(page, UMA.id, UMA.password);
  await addSource(page, { url: east.sourceUrl("east") });
  await addSource(page, { url: east.sourceUrl("west") });
  await consoleNav(page).getByRole("link", { name: "Marketplace", exact: true }).click();
  await expect(pageHeading(page, "Marketplace")).toBeVisible();

  await page.getByRole("tab", { name: /^east/ }).click();
  const panel = page.getByRole("tabpanel", { name: /^east/ });
  await expect(panel.getByTestId("catalog-count")).toHaveText("3 templates");
  await expect(page).toHaveURL(/[?&]source=personal(:|%3A)east/);
  await panel.getByRole("searchbox", { name: "Search" }).fill("github");
  await expect(panel.getByTestId("catalog-count")).toHaveText("2 of 3 templates match");
  await expect(page).toHaveURL(/[?&]q=github/);
  await panel.getByRole("combobox", { name: "Integration" }).click();
  await page.getByRole("option", { name: "cursor", exact: true }).click();
  await expect(cards(panel)).toHaveCount(1);
  await expect(page).toHaveURL(/[?&]integration=cursor/);

  // A reload: the same tab, the same search and filter, the same one card.
  await page.reload();
  const reloaded = page.getByRole("tabpanel", { name: /^east/ });
  await expect(page.getByRole("tab", { name: /^east/ })).toHaveAttribute("aria-selected", "true");
  await expect(reloaded.getByRole("searchbox", { name: "Search" })).toHaveValue("github");
  await expect(reloaded.getByRole("combobox", { name: "Integration" })).toHaveValue("cursor");
  await expect(cards(reloaded)).toHaveCount(1);
  await expect(catalogCard(reloaded, "lint-buddy")).toBeVisible();

  // Back: the filter before (the search alone), both of its cards.
  await page.goBack();
  await expect(page).not.toHaveURL(/integration=/);
  await expect(reloaded.getByRole("combobox", { name: "Integration" })).toHaveValue("");
  await expect(reloaded.getByTestId("catalog-count")).toHaveText("2 of 3 templates match");
  await expect(catalogCard(reloaded, "deploy-diary")).toBeVisible();

  // Another tab is a history entry of its own, too.
  await page.getByRole("tab", { name: /^west/ }).click();
  await expect(page.getByRole("tabpanel", { name: /^west/ }).getByTestId("catalog-count")).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("tab", { name: /^east/ })).toHaveAttribute("aria-selected", "true");
});

const templateRow = (page: Page, id: string) => page.getByTestId(`template-row-${id}`);

test("the templates list keeps its search, category and tag over a reload, and Back undoes a filter", async ({ page, request }) => {
  for (const [id, category, tags] of LISTED) {
    await apiCall(request, "POST", "/ext/svc/admin/templates", ADMIN_HEADERS, {
      id,
      name: `URL state ${id}`,
      manifest: e2eManifest(),
      category,
      tags,
    });
  }
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await page.goto("/templates?scope=server");
  await expect(pageHeading(page, "Templates")).toBeVisible();
  await page.getByLabel("Category", { exact: true }).selectOption("urlstate-ops");
  await expect(page).toHaveURL(/[?&]category=urlstate-ops/);
  await expect(templateRow(page, "url-state-alpha")).toBeVisible();
  await expect(templateRow(page, "url-state-gamma")).toHaveCount(0);
  await page.getByLabel("Tag", { exact: true }).selectOption("urlstate-b");
  await expect(page).toHaveURL(/[?&]tag=urlstate-b/);
  await expect(templateRow(page, "url-state-alpha")).toHaveCount(0);
  await expect(templateRow(page, "url-state-beta")).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("Category", { exact: true })).toHaveValue("urlstate-ops");
  await expect(page.getByLabel("Tag", { exact: true })).toHaveValue("urlstate-b");
  await expect(templateRow(page, "url-state-beta")).toBeVisible();
  await expect(templateRow(page, "url-state-alpha")).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]scope=server/);

  await page.goBack();
  await expect(page.getByLabel("Tag", { exact: true })).toHaveValue("");
  await expect(page.getByLabel("Category", { exact: true })).toHaveValue("urlstate-ops");
  await expect(templateRow(page, "url-state-alpha")).toBeVisible();
  await expect(templateRow(page, "url-state-beta")).toBeVisible();

  // The search is in the URL too.
  await page.getByRole("searchbox", { name: "Search" }).fill("alpha");
  await expect(page).toHaveURL(/[?&]q=alpha/);
  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue("alpha");
  await expect(templateRow(page, "url-state-alpha")).toBeVisible();
  await expect(templateRow(page, "url-state-beta")).toHaveCount(0);
});

test("the audit log keeps its filters and page over a reload, and Back returns to the filter before", async ({ page, request }) => {
  // Writes to find: a template made and deleted twice over. What the filters below show of them,
  // with what earlier tries of this file left in the log.
  const firstRows = await auditRowsAfter(request, { target: "/ext/svc/admin/templates/url-audit-1" }, 2);
  const secondDeletes = await auditRowsAfter(request, { action: "template.delete", target: "/ext/svc/admin/templates/url-audit-2" }, 1);
  for (const [n, id] of AUDITED.entries()) {
    await apiCall(request, "POST", "/ext/svc/admin/templates", ADMIN_HEADERS, { id, name: `URL audit ${n + 1}`, manifest: e2eManifest() });
    await apiCall(request, "DELETE", `/ext/svc/admin/templates/${id}`, ADMIN_HEADERS);
  }
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await page.goto("/admin/audit");
  await expect(pageHeading(page, "Audit log")).toBeVisible();
  const rows = page.getByTestId("audit-table").locator("tbody tr");

  await page.getByLabel("Action", { exact: true }).selectOption("template.delete");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(/\?action=template\.delete$/);
  await expect(rows.first()).toContainText("Template deleted");

  await page.getByLabel("Target", { exact: true }).fill("/ext/svc/admin/templates/url-audit-1");
  await page.getByLabel("Action", { exact: true }).selectOption("");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(/[?&]target=/);
  await expect(rows).toHaveCount(firstRows);
  await expect(rows.nth(0)).toContainText("Template deleted");
  await expect(rows.nth(1)).toContainText("Template created");

  await page.reload();
  await expect(page.getByLabel("Target", { exact: true })).toHaveValue("/ext/svc/admin/templates/url-audit-1");
  await expect(page.getByLabel("Action", { exact: true })).toHaveValue("");
  await expect(rows).toHaveCount(firstRows);

  // Back: the action filter again, in the form and in the rows.
  await page.goBack();
  await expect(page).toHaveURL(/\?action=template\.delete$/);
  await expect(page.getByLabel("Action", { exact: true })).toHaveValue("template.delete");
  await expect(page.getByLabel("Target", { exact: true })).toHaveValue("");
  await expect(rows.filter({ hasText: "Template created" })).toHaveCount(0);
  await expect(rows.filter({ hasText: "/ext/svc/admin/templates/url-audit-2" })).toHaveCount(secondDeletes);

  // A later page is in the URL as its cursor: the same entries after a reload. (The console's pages
  // hold 50 entries, so the API's cursor after 50 is the console's second page.)
  const first = await request.get("/ext/svc/admin/audit?limit=50", { headers: ADMIN_HEADERS });
  const body = (await first.json()) as { entries: { id: string }[]; next_cursor: string | null };
  if (body.next_cursor) {
    await page.goto(`/admin/audit?cursor=${encodeURIComponent(body.next_cursor)}`);
    await expect(page.getByRole("button", { name: "Newest entries" })).toBeVisible();
    // textContent, as toHaveText compares it (innerText adds the cells' tabs and line breaks).
    const shown = (await rows.first().textContent()) ?? "";
    expect(shown).not.toBe("");
    await page.reload();
    await expect(rows.first()).toHaveText(shown);
  }
});

test("a template's page: Copy manifest copies it, and the usage panel shows the curl request and CLI commands", async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await apiCall(request, "POST", "/ext/svc/admin/templates", ADMIN_HEADERS, { id: USAGE, name: "URL usage", manifest: e2eManifest() });
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await page.goto("/templates/server/url-usage");
  await expect(pageHeading(page, "URL usage")).toBeVisible();

  await page.getByRole("button", { name: "Copy manifest" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Manifest of url-usage copied to the clipboard." })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(JSON.parse(copied)).toMatchObject({ version: "1" });

  const usage = page.getByTestId("template-usage");
  const curl = usage.getByLabel("curl request creating a bank from server/url-usage");
  await expect(curl).toContainText(`curl -X POST '${E2E_BASE_URL}/ext/svc/banks?dry_run=true'`);
  await expect(curl).toContainText('-H "Authorization: Bearer $BANK_TEMPLATES_API_KEY"');
  await expect(curl).toContainText('"template":"server/url-usage"');
  const cli = usage.getByLabel("CLI commands for server/url-usage");
  await expect(cli).toContainText("bank-templates templates show url-usage --scope server");
  await expect(cli).toContainText("bank-templates banks create my-bank --template server/url-usage --dry-run");

  await usage.getByRole("group", { name: "CLI" }).getByRole("button", { name: "Copy" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("--template server/url-usage --dry-run");

  await page.getByRole("link", { name: "Create a bank from it" }).click();
  await expect(page).toHaveURL(/\/banks\/new\?template=server%2Furl-usage$/);
});
