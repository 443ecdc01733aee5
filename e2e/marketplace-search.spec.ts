import { request as apiRequest, type Locator, type Page } from "@playwright/test";
import { createFreshUser } from "./support/api";
import { consoleNav, pageHeading, signIn } from "./support/console";
import { E2E_ADMIN_TOKEN, E2E_BASE_URL } from "./support/env";
import { expect, screenshot, screenshotBoth, test } from "./support/fixtures";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";
import { addSource, catalogCard, openCatalog } from "./support/template-steps";

// Marketplace browsing that finds things: one search over every source ("All sources"),
// search over tags and integrations, an integration filter, Refresh, and each source's
// catalog status (when it was last fetched, why the last fetch failed) on the marketplace
// and on the Sources page. Two sources on two marketplace servers.
test.describe.configure({ mode: "serial" });

const MIRA = { id: "mira", password: "mira's long e2e password" };
const north = new E2eMarketplace();
const south = new E2eMarketplace();

const entry = (id: string, name: string, description: string, integrations: string[], tags: string[] = []): CatalogEntry => ({
  id,
  name,
  description,
  category: "engineering",
  integrations,
  tags,
  manifest: e2eManifest(),
});
const NORTH_CATALOG = [
  entry(
    "code-reviewer",
    "Code reviewer",
    "Remembers review comments and the conventions behind them.",
    ["claude-code", "github"],
    ["review"],
  ),
  entry("meeting-notes", "Meeting notes", "Decisions and owners from every meeting.", ["slack"], ["notes"]),
];
const SOUTH_CATALOG = [
  entry("pair-programmer", "Pair programmer", "Keeps the context of a coding session.", ["claude-code", "cursor"], ["coding"]),
  entry("support-desk", "Support desk", "Customer issues and how they were solved.", ["zendesk"], ["customers"]),
];

// Three entries whose three orders differ: the marketplace's, by name, and by relevance to "roadmap".
const WEST_CATALOG = [
  { id: "zebra-notes", name: "Zebra notes", description: "Notes on the roadmap.", manifest: e2eManifest() },
  { id: "roadmap-keeper", name: "Roadmap keeper", description: "Keeps the roadmap.", manifest: e2eManifest() },
  { id: "meeting-minutes", name: "Meeting minutes", description: "Notes from meetings, roadmap items included.", manifest: e2eManifest() },
];

test.beforeAll(async () => {
  await Promise.all([north.start(), south.start()]);
  north.setCatalog("north", NORTH_CATALOG);
  south.setCatalog("south", SOUTH_CATALOG);
  const api = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  // A clean slate (her sources and template go with her): a CI retry runs the whole serial file again on the same data.
  await createFreshUser(api, { id: MIRA.id, display_name: "Mira", password: MIRA.password });
  await api.dispose();
});

test.afterAll(() => Promise.all([north.stop(), south.stop()]));

const sourcesTable = (page: Page) => page.getByTestId("sources-table");
const sourceRow = (page: Page, name: string) =>
  sourcesTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name, exact: true }) });
/** The cards of a catalog view, as a list. */
const cards = (panel: Locator, label: string) => panel.getByRole("list", { name: `Templates in ${label}` }).getByRole("listitem");

async function openSources(page: Page) {
  await consoleNav(page).getByRole("link", { name: "Sources", exact: true }).click();
  await expect(pageHeading(page, "Template sources")).toBeVisible();
}

test("mira searches every source at once: by integration, with the integration filter, installing from there", async ({ page }) => {
  await signIn(page, MIRA.id, MIRA.password);
  await addSource(page, { url: north.sourceUrl("north") });
  await addSource(page, { url: south.sourceUrl("south") });
  // Adding a source fetches its catalog once and says what it found.
  await expect(sourceRow(page, "north").getByTestId("source-catalog-status")).toContainText(`${NORTH_CATALOG.length} templates found`);
  await expect(sourceRow(page, "south").getByTestId("source-catalog-status")).toContainText(`${SOUTH_CATALOG.length} templates found`);

  // With two sources, "All sources" is the first tab and the one shown.
  await consoleNav(page).getByRole("link", { name: "Marketplace", exact: true }).click();
  await expect(page.getByRole("tab").first()).toHaveText("All sources");
  await expect(page.getByRole("tab", { name: "All sources" })).toHaveAttribute("aria-selected", "true");
  const all = await openCatalog(page, "All sources");
  const status = all.getByTestId("all-sources-status");
  await expect(status.locator('[data-source="personal:north"]')).toContainText("north (personal) · 2 templates · Last fetched now");
  await expect(status.locator('[data-source="personal:south"]')).toContainText("south (personal) · 2 templates · Last fetched now");
  await expect(all.getByRole("searchbox", { name: "Search" })).toHaveAttribute("placeholder", "Name, description, id, tag or integration");

  // An integration's name finds the templates of both sources that have it, and only them.
  const search = all.getByRole("searchbox", { name: "Search" });
  await search.fill("claude-code");
  await expect(all.getByTestId("catalog-count")).toHaveText(/^2 of \d+ templates match$/);
  await expect(cards(all, "all sources")).toHaveCount(2);
  const reviewer = catalogCard(all, "code-reviewer");
  const pair = catalogCard(all, "pair-programmer");
  await expect(reviewer).toHaveAttribute("data-source", "personal:north");
  await expect(reviewer.getByTestId("entry-source")).toHaveText("From north (personal source)");
  await expect(pair.getByTestId("entry-source")).toHaveText("From south (personal source)");
  await expect(pair.locator("mark")).toHaveText(["claude-code"]);
  await screenshotBoth(page, "marketplace-all-sources");

  // Every word must match somewhere: an integration and a tag together.
  await search.fill("claude-code coding");
  await expect(cards(all, "all sources")).toHaveCount(1);
  await expect(pair).toBeVisible();
  await search.fill("");

  // The integration filter narrows the same way.
  await all.getByRole("combobox", { name: "Integration" }).click();
  await page.getByRole("option", { name: "claude-code", exact: true }).click();
  await expect(cards(all, "all sources")).toHaveCount(2);
  await expect(reviewer).toBeVisible();
  await expect(pair).toBeVisible();
  await all.getByRole("combobox", { name: "Integration" }).click();
  await page.getByRole("option", { name: "cursor", exact: true }).click();
  await expect(cards(all, "all sources")).toHaveCount(1);
  await expect(pair).toBeVisible();
  await screenshot(page, "marketplace-integration-filter");

  // Installing from "All sources" installs from the entry's own source.
  await pair.getByRole("button", { name: "Install Pair programmer" }).click();
  const dialog = page.getByRole("dialog", { name: "Install Pair programmer" });
  await expect(dialog).toContainText("from south");
  await dialog.getByRole("button", { name: "Install", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(all.getByRole("status").filter({ hasText: "Installed" })).toContainText("as pair-programmer");
  await expect(pair.getByTestId("installed-as")).toHaveText("Installed as personal/pair-programmer");
});

test("mira sorts a catalog: by relevance while searching, by name or in the marketplace's order, kept in the URL", async ({ page }) => {
  north.setCatalog("west", WEST_CATALOG);
  await signIn(page, MIRA.id, MIRA.password);
  await addSource(page, { url: north.sourceUrl("west") });
  const west = await openCatalog(page, "west");
  const names = west.getByRole("list", { name: "Templates in west" }).getByRole("heading", { level: 3 });
  const sort = west.getByRole("combobox", { name: "Sort by" });
  const chooseSort = async (label: string) => {
    await sort.click();
    await page.getByRole("option", { name: label, exact: true }).click();
  };

  // Not searching: the marketplace's order, and no relevance to choose.
  await expect(sort).toHaveValue("The marketplace's order");
  await expect(names).toHaveText(["Zebra notes", "Roadmap keeper", "Meeting minutes"]);
  await sort.click();
  await expect(page.getByRole("option")).toHaveText(["Name, A to Z", "The marketplace's order"]);
  await page.keyboard.press("Escape");

  // Searching: the best match first (its name says it), the others in the marketplace's order.
  await west.getByRole("searchbox", { name: "Search" }).fill("roadmap");
  await expect(sort).toHaveValue("Relevance");
  await expect(names).toHaveText(["Roadmap keeper", "Zebra notes", "Meeting minutes"]);
  await expect(page).not.toHaveURL(/sort=/);

  // By name, in the URL: a reload keeps it.
  await chooseSort("Name, A to Z");
  await expect(names).toHaveText(["Meeting minutes", "Roadmap keeper", "Zebra notes"]);
  await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
  await page.reload();
  await expect(sort).toHaveValue("Name, A to Z");
  await expect(names).toHaveText(["Meeting minutes", "Roadmap keeper", "Zebra notes"]);
  await screenshotBoth(page, "marketplace-sorted");

  // The marketplace's order while searching; Back returns to the order by name.
  await chooseSort("The marketplace's order");
  await expect(names).toHaveText(["Zebra notes", "Roadmap keeper", "Meeting minutes"]);
  await expect(page).toHaveURL(/[?&]sort=catalog(&|$)/);
  await page.goBack();
  await expect(names).toHaveText(["Meeting minutes", "Roadmap keeper", "Zebra notes"]);
});

test("mira refreshes a catalog that changed, and sees a failing marketplace on its catalog and the Sources page", async ({
  page,
  watch,
}) => {
  await signIn(page, MIRA.id, MIRA.password);

  // A new template in south shows after Refresh (until then the fresh cached catalog answers).
  south.setCatalog("south", [
    ...SOUTH_CATALOG,
    entry("standup-bot", "Standup bot", "Yesterday, today, blockers.", ["slack", "claude-code"]),
  ]);
  const southPanel = await openCatalog(page, "south");
  await expect(southPanel.getByTestId("catalog-count")).toHaveText("2 templates");
  await southPanel.getByRole("button", { name: "Refresh" }).click();
  await expect(southPanel.getByTestId("catalog-count")).toHaveText("3 templates");
  await expect(catalogCard(southPanel, "standup-bot")).toBeVisible();
  await expect(southPanel.getByTestId("catalog-fetched")).toHaveText("Last fetched now");
  await expect(southPanel.getByTestId("catalog-failure")).toHaveCount(0);

  // north's marketplace breaks: Refresh fails, and the panel says why while still listing the last catalog.
  watch.expectError(/catalog\?.*refresh=true → 502|status of 502/);
  north.failCatalog("north");
  const northPanel = await openCatalog(page, "north");
  await northPanel.getByRole("button", { name: "Refresh" }).click();
  const failure = northPanel.getByTestId("catalog-failure");
  await expect(failure).toBeVisible();
  await expect(failure).toContainText("Could not fetch the catalog of north");
  await expect(failure).toContainText(`The marketplace at ${north.url}/north/templates.json answered 500`);
  await expect(failure).toContainText("Showing the catalog as it was last fetched.");
  await expect(northPanel.getByTestId("catalog-count")).toHaveText("2 templates");
  await screenshot(page, "marketplace-catalog-failed");

  // "All sources" shows north's failure inline and still lists everything it has.
  const all = await openCatalog(page, "All sources");
  await expect(all.getByTestId("catalog-failure")).toHaveCount(1);
  await expect(all.getByTestId("catalog-failure")).toContainText("Could not fetch the catalog of north");
  await all.getByRole("searchbox", { name: "Search" }).fill("claude-code");
  await expect(cards(all, "all sources")).toHaveCount(3);

  // The Sources page shows it too.
  await openSources(page);
  const northStatus = sourceRow(page, "north").getByTestId("source-catalog-status");
  await expect(northStatus.getByText("Last fetch failed", { exact: true })).toBeVisible();
  await expect(northStatus.getByTestId("source-catalog-error")).toContainText("answered 500");
  await expect(northStatus).not.toContainText("Never fetched");
  const southStatus = sourceRow(page, "south").getByTestId("source-catalog-status");
  await expect(southStatus.getByText("Last fetch failed")).toHaveCount(0);
  await expect(southStatus).not.toContainText("Never fetched");
  await screenshotBoth(page, "sources-catalog-status");

  // The marketplace is back: Refresh clears the failure everywhere.
  north.setCatalog("north", NORTH_CATALOG);
  const recovered = await openCatalog(page, "north");
  await recovered.getByRole("button", { name: "Refresh" }).click();
  await expect(recovered.getByTestId("catalog-failure")).toHaveCount(0);
  await expect(recovered.getByTestId("catalog-fetched")).toHaveText("Last fetched now");
  await openSources(page);
  await expect(sourceRow(page, "north").getByText("Last fetch failed")).toHaveCount(0);
});

test("a source whose marketplace is down from the start fails inline in All sources; the others are listed", async ({ page, watch }) => {
  watch.expectError(/east\/catalog.* → 502|status of 502/);
  north.failCatalog("east");
  await signIn(page, MIRA.id, MIRA.password);
  await addSource(page, { url: north.sourceUrl("east") });
  const all = await openCatalog(page, "All sources");
  const failure = all.getByTestId("catalog-failure");
  await expect(failure).toHaveCount(1);
  await expect(failure).toContainText("Could not fetch the catalog of east");
  await expect(failure).not.toContainText("Showing the catalog as it was last fetched.");
  await expect(all.getByTestId("all-sources-status").locator('[data-source="personal:east"]')).toContainText(
    "east (personal) · not available · Never fetched",
  );
  await all.getByRole("searchbox", { name: "Search" }).fill("claude-code");
  await expect(cards(all, "all sources")).toHaveCount(3);
  await screenshot(page, "marketplace-all-sources-failure");

  await openSources(page);
  // Never fetched because its fetch failed: the failure says so, without "Never fetched" beside it.
  await expect(sourceRow(page, "east").getByText("Last fetch failed", { exact: true })).toBeVisible();
  await expect(sourceRow(page, "east").getByTestId("source-catalog-status")).not.toContainText("Never fetched");
});
