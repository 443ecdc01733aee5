import { request as apiRequest } from "@playwright/test";
import { createFreshUser } from "./support/api";
import { consoleNav, pageHeading, signIn } from "./support/console";
import { E2E_ADMIN_TOKEN, E2E_BASE_URL } from "./support/env";
import { DESKTOP, expect, MOBILE, overlayScreenshot, screenshot, screenshotBoth, test } from "./support/fixtures";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";
import {
  addSource,
  catalogCard,
  checkAllForUpdates,
  deleteTemplate,
  editTemplate,
  expectUpdateBadge,
  installFromMarketplace,
  manifestEditor,
  manifestValidation,
  manifestValue,
  openCatalog,
  openTemplate,
  openTemplates,
  reviewDiffAndUpdate,
  saveTemplate,
  templateRow,
  typeManifest,
} from "./support/template-steps";

// Templates as a member uses them: a marketplace the test serves, a source pointing at it,
// browsing and installing, editing with live validation, updates after the catalog changes
// (reviewed as a diff), a hand-made template, and cleaning up. Each test signs in afresh.
test.describe.configure({ mode: "serial" });

const DANA = { id: "dana", password: "dana's long e2e password" };
const SOURCE = "acme-market";
const market = new E2eMarketplace();

const support = (overrides: Partial<CatalogEntry> = {}): CatalogEntry => ({
  id: "support-bot",
  name: "Support assistant",
  description: "Answers customer questions from past tickets.",
  category: "support",
  integrations: ["slack", "zendesk"],
  tags: ["starter", "customers"],
  homepage_url: "https://example.com/templates/support-bot",
  manifest: e2eManifest(),
  ...overrides,
});
const sales: CatalogEntry = {
  id: "sales-notes",
  name: "Sales notes",
  description: "Keeps deals, contacts and next steps.",
  category: "sales",
  integrations: ["hubspot"],
  tags: ["crm"],
  manifest: e2eManifest({ directives: [{ name: "Next step", content: "End with the next step of the deal." }] }),
};
const decisions: CatalogEntry = {
  id: "eng-decisions",
  name: "Engineering decisions",
  description: "Architecture decisions and their reasons.",
  category: "engineering",
  integrations: ["github"],
  tags: ["starter"],
  manifest: e2eManifest({ mental_models: [{ id: "adrs", name: "Decisions", source_query: "What was decided, and why?" }] }),
};

test.beforeAll(async () => {
  await market.start();
  market.setCatalog("acme", [support(), sales, decisions]);
  // Member dana, made through the API with the bootstrap admin key.
  const api = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  await createFreshUser(api, { id: DANA.id, display_name: "Dana", password: DANA.password });
  await api.dispose();
});

test.afterAll(() => market.stop());

test("dana adds a source and browses its catalog: search, filters, badges, manifest preview", async ({ page }) => {
  await signIn(page, DANA.id, DANA.password);
  // Before any source the marketplace says what to do.
  await consoleNav(page).getByRole("link", { name: "Marketplace", exact: true }).click();
  await expect(pageHeading(page, "Marketplace")).toBeVisible();
  await expect(page.getByText("No sources yet")).toBeVisible();
  await expect(page.getByRole("radio", { name: "Server" })).toHaveCount(0); // no scope switch for members
  await screenshot(page, "marketplace-empty");

  await addSource(page, { url: market.sourceUrl("acme"), alias: SOURCE });
  const panel = await openCatalog(page, SOURCE);
  await expect(panel.getByTestId("catalog-count")).toHaveText("3 templates");
  const card = catalogCard(panel, "support-bot");
  await expect(card.getByRole("heading", { name: "Support assistant" })).toBeVisible();
  await expect(card).toContainText("Answers customer questions from past tickets.");
  for (const badge of ["Integration: slack", "Integration: zendesk", "Category: support", "#starter"]) {
    await expect(card.getByText(badge, { exact: true })).toBeVisible();
  }
  // The entry's home page, opening in a new tab; an entry without one has no link.
  const home = card.getByRole("link", { name: "Home page of Support assistant (opens in a new tab)" });
  await expect(home).toHaveAttribute("href", "https://example.com/templates/support-bot");
  await expect(home).toHaveAttribute("target", "_blank");
  await expect(catalogCard(panel, "sales-notes").getByRole("link", { name: /^Home page of/ })).toHaveCount(0);
  await screenshotBoth(page, "marketplace");

  // Search by name and by description.
  const search = panel.getByRole("searchbox", { name: "Search" });
  await search.fill("decisions");
  await expect(panel.getByTestId("catalog-count")).toHaveText("1 of 3 templates match");
  await expect(catalogCard(panel, "eng-decisions")).toBeVisible();
  await expect(catalogCard(panel, "support-bot")).toHaveCount(0);
  await search.fill("next steps");
  await expect(panel.getByTestId("catalog-count")).toHaveText("1 of 3 templates match");
  await expect(catalogCard(panel, "sales-notes")).toBeVisible();
  await search.fill("nothing like this");
  await expect(panel.getByText("No templates match")).toBeVisible();
  await panel.getByRole("button", { name: "Clear search and filters" }).click();
  await expect(panel.getByTestId("catalog-count")).toHaveText("3 templates");

  // Category and tag filters.
  await panel.getByRole("combobox", { name: "Category" }).click();
  await page.getByRole("option", { name: "sales", exact: true }).click();
  await expect(panel.getByTestId("catalog-count")).toHaveText("1 of 3 templates match");
  await expect(catalogCard(panel, "sales-notes")).toBeVisible();
  await panel.getByRole("combobox", { name: "Category" }).click();
  await page.getByRole("option", { name: "sales", exact: true }).click(); // picking it again clears it
  await expect(panel.getByTestId("catalog-count")).toHaveText("3 templates");
  await panel.getByLabel("Tags", { exact: true }).click();
  await page.getByRole("option", { name: "starter", exact: true }).click();
  await page.keyboard.press("Escape");
  await expect(panel.getByTestId("catalog-count")).toHaveText("2 of 3 templates match");
  await expect(catalogCard(panel, "sales-notes")).toHaveCount(0);
  await screenshot(page, "marketplace-filtered");

  // The preview: what the template holds, as the template page will say it, and the manifest as formatted JSON.
  await catalogCard(panel, "support-bot").getByRole("button", { name: "Preview manifest of Support assistant" }).click();
  const drawer = page.getByRole("dialog", { name: "Manifest of Support assistant" });
  const summary = drawer.getByTestId("template-summary");
  await expect(summary.getByTestId("template-summary-line")).toHaveText("2 mental models, 2 directives, 2 bank settings");
  await expect(summary).toContainText("Open tickets, Known fixes");
  await expect(summary).toContainText("disposition_empathy");
  await expect(summary).toContainText("zendesk");
  // A catalog carries no history of a template: the preview says so, with the catalog's age.
  await expect(drawer.getByTestId("preview-revision-note")).toHaveText(
    /^The catalog lists only a template's current revision, without dates or earlier versions\. Last fetched .+\.$/,
  );
  const json = drawer.getByTestId("manifest-preview");
  await expect(json).toContainText('"id": "open-tickets"');
  await expect(json).toContainText('  "version": "1",');
  await overlayScreenshot(page, "marketplace-preview");
  await page.setViewportSize(MOBILE);
  await overlayScreenshot(page, "marketplace-preview");
  await page.setViewportSize(DESKTOP);
  await drawer.getByRole("button", { name: "Close" }).click();
  await expect(drawer).toBeHidden();
});

test("dana installs a template, and again under an alias, with refusals at the alias", async ({ page, watch }) => {
  await signIn(page, DANA.id, DANA.password);
  await installFromMarketplace(page, { source: SOURCE, templateId: "support-bot" });

  // The same id again: 409 at the alias field; an invalid alias: 422 there too.
  watch.expectError(/install → 409|status of 409/);
  watch.expectError(/install → 422|status of 422/);
  const panel = await openCatalog(page, SOURCE);
  const card = catalogCard(panel, "support-bot");
  // Installed already: the card says where, and offers no Install; the preview installs again.
  await expect(card.getByRole("button", { name: "Install Support assistant" })).toHaveCount(0);
  await expect(card.getByRole("link", { name: "personal/support-bot" })).toHaveAttribute("href", "/templates/personal/support-bot");
  await card.getByRole("button", { name: "Preview manifest of Support assistant" }).click();
  await page
    .getByRole("dialog", { name: /^Manifest of / })
    .getByRole("button", { name: "Install again", exact: true })
    .click();
  const dialog = page.getByRole("dialog", { name: "Install Support assistant" });
  await expect(dialog).toContainText("already installed as support-bot");
  await dialog.getByRole("button", { name: "Install", exact: true }).click();
  const alias = dialog.getByLabel("Alias ID");
  await expect(alias).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText("support-bot is taken; choose another id")).toBeVisible();
  await overlayScreenshot(page, "marketplace-install-conflict");
  await alias.fill("not/valid");
  await dialog.getByRole("button", { name: "Install", exact: true }).click();
  await expect(dialog.getByText(/must be 1-128 characters/)).toBeVisible();
  await expect(alias).toHaveAttribute("aria-invalid", "true");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await installFromMarketplace(page, { source: SOURCE, templateId: "support-bot", alias: "support-copy", again: true });
  await expect(card.getByTestId("installed-as")).toHaveText("Installed as personal/support-bot, personal/support-copy");
  await expect(catalogCard(panel, "sales-notes").getByText("Installed", { exact: true })).toHaveCount(0);
  await screenshot(page, "marketplace-installed");

  await openTemplates(page);
  for (const id of ["support-bot", "support-copy"]) {
    await expect(templateRow(page, id)).toContainText("Support assistant");
    await expect(templateRow(page, id)).toContainText(SOURCE);
    await expect(templateRow(page, id)).toContainText("Up to date"); // an install is checked as it is made
  }
  await screenshotBoth(page, "templates");
});

test("dana edits a template: details, and a manifest checked live with errors at their paths", async ({ page, watch }) => {
  await signIn(page, DANA.id, DANA.password);
  await openTemplate(page, "support-bot");
  await expect(pageHeading(page, "Support assistant")).toBeVisible();
  await expect(page.getByTestId("update-state").getByText("Up to date")).toBeVisible();
  // The home page the catalog gave: a link beside the title, and a field of the form.
  await expect(page.getByRole("link", { name: "Home page of Support assistant (opens in a new tab)" })).toHaveAttribute(
    "href",
    "https://example.com/templates/support-bot",
  );
  await expect(page.getByRole("textbox", { name: "Home page" })).toHaveValue("https://example.com/templates/support-bot");
  await expect(manifestValidation(page)).toContainText("Valid bank-template manifest");

  // A mistake is listed at its path, with its line, and saving waits until it is fixed.
  const broken = e2eManifest({
    mental_models: [
      { id: "open-tickets", name: "Open tickets", source_query: "Which customer issues are still open?" },
      { id: "known-fixes", name: "Known fixes", source_query: "Which fixes solved recurring issues?", max_tokens: 100 },
    ],
  });
  await typeManifest(page, broken);
  const errors = manifestValidation(page).getByTestId("manifest-errors");
  await expect(errors.getByRole("listitem")).toHaveCount(1);
  await expect(errors).toContainText("manifest.mental_models[1].max_tokens");
  await expect(errors).toContainText("must be at least 256");
  await expect(manifestEditor(page)).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
  // The line link selects the spot in the text.
  await errors.getByRole("button", { name: /^Go to manifest\.mental_models\[1\]\.max_tokens, line \d+$/ }).click();
  await expect(manifestEditor(page)).toBeFocused();
  expect(await page.evaluate(() => document.getSelection()?.toString())).toBe('"max_tokens": 100');
  await screenshot(page, "template-detail-invalid");

  // Not JSON at all: said at once, with where.
  await manifestEditor(page).fill('{ "version": "1", }');
  await expect(manifestValidation(page)).toContainText("Not valid JSON");
  // Leaving with edits would ask first: drop them, then edit afresh.
  await page.getByRole("button", { name: "Discard changes", exact: true }).click();

  // A home page that is not a web address is refused, at its field.
  watch.expectError(/support-bot → 422|status of 422/);
  const homepage = page.getByRole("textbox", { name: "Home page" });
  await homepage.fill("ftp://example.com/support-bot");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(homepage).toHaveAttribute("aria-invalid", "true");
  await page.getByRole("button", { name: "Discard changes", exact: true }).click();

  await editTemplate(page, "support-bot", {
    name: "Support assistant (ours)",
    description: "Our own take on the support assistant.",
    addTags: ["edited"],
    homepage: "https://example.com/ours/support",
    manifest: e2eManifest({
      mental_models: [
        { id: "open-tickets", name: "Open tickets", source_query: "Which customer issues are still open?" },
        { id: "known-fixes", name: "Known fixes", source_query: "Which fixes solved recurring issues?", max_tokens: 1024 },
      ],
    }),
  });
  await expect(page.getByText("Edited locally")).toBeVisible();
  await page.reload();
  await expect(pageHeading(page, "Support assistant (ours)")).toBeVisible();
  await expect(manifestValue(page)).toHaveValue(/"max_tokens": 1024/);
  await expect(page.getByLabel("Description")).toHaveValue("Our own take on the support assistant.");
  await expect(page.getByRole("textbox", { name: "Home page" })).toHaveValue("https://example.com/ours/support");
  await screenshotBoth(page, "template-detail");

  await openTemplates(page);
  await expect(templateRow(page, "support-bot")).toContainText("Edited locally");
  await expect(templateRow(page, "support-bot")).toContainText("#edited");
});

test("after the catalog changes, dana checks all for updates and updates the unedited copy", async ({ page }) => {
  market.setCatalog("acme", [
    support({
      description: "Answers customer questions from past tickets, and escalates.",
      manifest: e2eManifest({
        directives: [
          { name: "Be kind", content: "Answer customers warmly, plainly and briefly." },
          { name: "Cite tickets", content: "Name the ticket each fact comes from." },
          { name: "Escalate", content: "Hand angry customers to a person." },
        ],
      }),
    }),
    sales,
    decisions,
  ]);
  await signIn(page, DANA.id, DANA.password);
  await checkAllForUpdates(page, 2);
  await expectUpdateBadge(page, "support-bot");
  await expectUpdateBadge(page, "support-copy");
  await screenshotBoth(page, "templates-updates");

  // The copy has no local edits: a plain confirmation.
  await templateRow(page, "support-copy").getByRole("button", { name: "Update template support-copy" }).click();
  const dialog = page.getByRole("dialog", { name: "Update template support-copy?" });
  await expect(dialog).toContainText("from source acme-market");
  await expect(dialog.getByText("This template has local edits")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Update", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(templateRow(page, "support-copy").getByText("Up to date")).toBeVisible();

  // The edited one: the dialog explains and offers only the overwrite; cancelled here.
  await templateRow(page, "support-bot").getByRole("button", { name: "Update template support-bot" }).click();
  const edited = page.getByRole("dialog", { name: "Update template support-bot?" });
  await expect(edited.getByText("This template has local edits")).toBeVisible();
  await expect(edited.getByRole("button", { name: "Overwrite local edits" })).toBeVisible();
  await expect(edited.getByRole("button", { name: "Update", exact: true })).toHaveCount(0);
  await overlayScreenshot(page, "templates-update-confirm");
  await edited.getByRole("button", { name: "Cancel" }).click();
  await expect(templateRow(page, "support-bot").getByText("Update available")).toBeVisible();
});

test("dana reviews the diff of the edited template and updates it, overwriting the edits", async ({ page }) => {
  await signIn(page, DANA.id, DANA.password);
  await reviewDiffAndUpdate(page, "support-bot", {
    force: true,
    added: ['"name": "Escalate"', "Answer customers warmly, plainly and briefly."],
    removed: ['"max_tokens": 1024', "Answer customers warmly and plainly."],
    beforeUpdate: async () => {
      const details = page.getByTestId("details-diff");
      const nameRow = details.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "Name", exact: true }) });
      await expect(nameRow).toContainText("Support assistant (ours)");
      await expect(nameRow).toContainText("Support assistant");
      await expect(details).toContainText("and escalates.");
      await screenshot(page, "template-update");
      await page.getByTestId("manifest-diff").getByText("Inline", { exact: true }).click();
      await expect(page.getByRole("radio", { name: "Inline" })).toBeChecked();
      await expect(page.getByTestId("manifest-diff").locator('[data-change="added"]').first()).toBeVisible();
      await page.setViewportSize(MOBILE);
      await screenshot(page, "template-update");
      await page.setViewportSize(DESKTOP);
      // The dark theme keeps added and removed lines apart.
      await page.getByRole("button", { name: "Switch to dark theme" }).click();
      await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
      await screenshot(page, "template-update-dark");
      await page.getByRole("button", { name: "Switch to light theme" }).click();
    },
  });
  await expect(pageHeading(page, "Support assistant")).toBeVisible();
  await expect(manifestValue(page)).toHaveValue(/Escalate/);
});

test("dana creates a template by pasting a manifest, checked before it is saved", async ({ page, watch }) => {
  await signIn(page, DANA.id, DANA.password);
  await openTemplates(page);
  await page.getByRole("link", { name: "New template" }).click();
  await expect(pageHeading(page, "New template")).toBeVisible();
  await expect(manifestValidation(page)).toContainText("Paste or type a manifest");
  const form = page.getByRole("form", { name: "New template" });
  await form.getByLabel("ID").fill("handmade");
  await form.getByLabel("Name").fill("Hand-made notes");
  await form.getByLabel("Category").fill("notes");
  await form.getByLabel("Tags").fill("mine");
  await form.getByLabel("Tags").press("Enter");
  await typeManifest(page, e2eManifest({ version: "2" }));
  await expect(manifestValidation(page).getByTestId("manifest-errors")).toContainText("manifest.version");
  await expect(form.getByRole("button", { name: "Create template" })).toBeDisabled();
  await screenshot(page, "template-new-invalid");
  await typeManifest(page, e2eManifest({ x_team: "support" }));
  await expect(manifestValidation(page)).toContainText("Valid bank-template manifest (1 warning)");
  await expect(manifestValidation(page).getByTestId("manifest-warnings")).toContainText("manifest.x_team");
  await screenshotBoth(page, "template-new");

  // An id that is taken is refused at the ID field.
  watch.expectError(/templates → 409|status of 409/);
  await form.getByLabel("ID").fill("support-bot");
  await form.getByRole("button", { name: "Create template" }).click();
  await expect(form.getByLabel("ID")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("support-bot is taken; choose another id")).toBeVisible();
  await form.getByLabel("ID").fill("handmade");
  await form.getByRole("button", { name: "Create template" }).click();
  await expect(page).toHaveURL(/\/templates\/personal\/handmade$/);
  await expect(pageHeading(page, "Hand-made notes")).toBeVisible();
  await expect(page.getByText("Made here from an inline manifest")).toBeVisible();
  await expect(manifestValue(page)).toHaveValue(/"x_team": "support"/);

  // A small edit saves without touching anything else.
  await page.getByLabel("Description").fill("Written by hand.");
  await saveTemplate(page, "handmade");
});

test("dana filters the templates and deletes what she made", async ({ page }) => {
  await signIn(page, DANA.id, DANA.password);
  await openTemplates(page);
  await page.getByRole("combobox", { name: "Category" }).selectOption("notes");
  await expect(page.getByTestId("templates-table").getByRole("caption")).toHaveText("1 of 3 templates, by id");
  await expect(templateRow(page, "handmade")).toBeVisible();
  await expect(templateRow(page, "support-bot")).toHaveCount(0);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await page.getByRole("combobox", { name: "Tag", exact: true }).selectOption("starter");
  await expect(page.getByTestId("templates-table").getByRole("caption")).toHaveText("2 of 3 templates, by id");
  await screenshot(page, "templates-filtered");
  await page.getByRole("button", { name: "Clear filters" }).click();

  for (const id of ["support-bot", "support-copy", "handmade"]) await deleteTemplate(page, id);
  // Other tests may have published server templates meanwhile; the empty state then points to them.
  await expect(page.getByText(/^No templates (of your own )?yet$/)).toBeVisible();
  await screenshot(page, "templates-empty");

  // The marketplace no longer marks the entry installed.
  const panel = await openCatalog(page, SOURCE);
  await expect(catalogCard(panel, "support-bot").getByText("Installed", { exact: true })).toHaveCount(0);
});
