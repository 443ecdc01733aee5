import type { Locator, Page } from "@playwright/test";
import { consoleNav, pageHeading } from "./console";
import { expect } from "./fixtures";

// Steps of the template journey, each done through the console as a person would and each
// checking what the page then shows. Personal scope (a member's own templates).

/** Adds a personal source on the Sources page and sees it listed. */
export async function addSource(page: Page, { url, alias }: { url: string; alias?: string }) {
  await consoleNav(page).getByRole("link", { name: "Sources", exact: true }).click();
  await expect(pageHeading(page, "Template sources")).toBeVisible();
  await page.getByRole("button", { name: "Add source" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a personal source", exact: true });
  await dialog.getByLabel("URL").fill(url);
  if (alias) await dialog.getByLabel("Alias").fill(alias);
  await dialog.getByRole("button", { name: "Add source" }).click();
  await expect(dialog).toBeHidden();
  const name = alias ?? new URL(url).pathname.split("/").filter(Boolean)[0]!;
  await expect(page.getByTestId("sources-table").getByRole("rowheader", { name, exact: true })).toBeVisible();
}

/** Removes a personal source on the Sources page, after confirming, and sees it gone. */
export async function removeSource(page: Page, name: string) {
  await consoleNav(page).getByRole("link", { name: "Sources", exact: true }).click();
  await expect(pageHeading(page, "Template sources")).toBeVisible();
  const table = page.getByTestId("sources-table");
  await expect(table.getByRole("rowheader", { name, exact: true })).toBeVisible();
  await page.getByRole("button", { name: `Remove source ${name}`, exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Remove source?", exact: true });
  await expect(confirm).toContainText(name);
  await confirm.getByRole("button", { name: "Remove source" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("rowheader", { name, exact: true })).toHaveCount(0);
}

/**
 * Opens the marketplace on a source's tab (or "All sources") and waits for its catalog. A
 * source's tab is named by the source, then its scope badge when installing as oneself.
 */
export async function openCatalog(page: Page, source: string): Promise<Locator> {
  if (!new URL(page.url()).pathname.startsWith("/marketplace")) {
    await consoleNav(page).getByRole("link", { name: "Marketplace", exact: true }).click();
  }
  await expect(pageHeading(page, "Marketplace")).toBeVisible();
  const name = new RegExp(`^${source.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*(personal|server)?$`);
  const tab = page.getByRole("tab", { name });
  await tab.click();
  await expect(tab).toHaveAttribute("aria-selected", "true");
  const panel = page.getByRole("tabpanel", { name });
  await expect(panel.getByTestId("catalog-count")).toBeVisible();
  return panel;
}

/** The card of a catalog entry. */
export const catalogCard = (scope: Locator | Page, templateId: string) => scope.getByTestId(`catalog-entry-${templateId}`);

/**
 * Installs a catalog entry from the marketplace, under `alias` when given, and sees the
 * success message and the entry marked as installed under that id. An entry installed
 * already (`again`) has no Install on its card, only where it is installed: it installs again
 * from its manifest preview.
 */
export async function installFromMarketplace(
  page: Page,
  { source, templateId, alias, again = false }: { source: string; templateId: string; alias?: string; again?: boolean },
) {
  const panel = await openCatalog(page, source);
  const card = catalogCard(panel, templateId);
  if (again) {
    await expect(card.getByRole("button", { name: /^Install / })).toHaveCount(0);
    await card.getByRole("button", { name: /^Preview manifest of / }).click();
    await page
      .getByRole("dialog", { name: /^Manifest of / })
      .getByRole("button", { name: "Install again", exact: true })
      .click();
  } else {
    await card.getByRole("button", { name: /^Install / }).click();
  }
  const dialog = page.getByRole("dialog", { name: /^Install / });
  await dialog.getByLabel("Alias ID").fill(alias ?? "");
  await dialog.getByRole("button", { name: "Install", exact: true }).click();
  await expect(dialog).toBeHidden();
  const id = alias ?? templateId;
  await expect(panel.getByRole("status").filter({ hasText: "Installed" })).toContainText(`as ${id}`);
  await expect(card.getByText("Installed", { exact: true })).toBeVisible();
  await expect(card.getByTestId("installed-as")).toContainText(id);
}

/** Opens the Templates page and waits for the table. */
export async function openTemplates(page: Page) {
  await consoleNav(page).getByRole("link", { name: "Templates", exact: true }).click();
  await expect(pageHeading(page, "Templates")).toBeVisible();
}

export const templateRow = (page: Page, id: string) => page.getByTestId(`template-row-${id}`);

/** Opens a template's page from the Templates table. */
export async function openTemplate(page: Page, id: string) {
  await openTemplates(page);
  await templateRow(page, id).getByRole("link", { name: id, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/templates/personal/${id}$`));
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText(id);
}

export interface TemplateEdits {
  name?: string;
  description?: string;
  category?: string;
  addTags?: string[];
  homepage?: string;
  manifest?: Record<string, unknown>;
}

/**
 * The manifest editor (CodeMirror's editable content, there once the editor's code has
 * loaded), its whole text (a hidden text area: CodeMirror draws only the lines in view) and
 * its validation status.
 */
export const manifestEditor = (page: Page) => page.getByTestId("manifest-editor");
export const manifestValue = (page: Page) => page.getByTestId("manifest-editor-value");
export const manifestValidation = (page: Page) => page.getByTestId("manifest-validation");

/** Replaces the manifest text and waits for the live check to finish. */
export async function typeManifest(page: Page, manifest: Record<string, unknown> | string) {
  await manifestEditor(page).fill(typeof manifest === "string" ? manifest : JSON.stringify(manifest, null, 2));
  await expect(manifestValidation(page).getByText("Checking the manifest…")).toHaveCount(0);
}

/** Edits a template's details and manifest on its page, saves, and sees the result. */
export async function editTemplate(page: Page, id: string, edits: TemplateEdits) {
  await openTemplate(page, id);
  const form = page.getByRole("form", { name: `Edit template ${id}` });
  if (edits.name !== undefined) await form.getByLabel("Name").fill(edits.name);
  if (edits.description !== undefined) await form.getByLabel("Description").fill(edits.description);
  if (edits.category !== undefined) await form.getByLabel("Category").fill(edits.category);
  if (edits.homepage !== undefined) await form.getByRole("textbox", { name: "Home page" }).fill(edits.homepage);
  for (const tag of edits.addTags ?? []) {
    await form.getByLabel("Tags").fill(tag);
    await form.getByLabel("Tags").press("Enter");
  }
  if (edits.manifest) {
    await typeManifest(page, edits.manifest);
    await expect(manifestValidation(page)).toContainText("Valid bank-template manifest");
  }
  await saveTemplate(page, id);
  if (edits.name !== undefined) await expect(pageHeading(page, edits.name)).toBeVisible();
}

/** Saves the open template and sees it saved. */
export async function saveTemplate(page: Page, id: string) {
  const form = page.getByRole("form", { name: `Edit template ${id}` });
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByRole("status").filter({ hasText: "Changes saved." })).toBeVisible();
  await expect(form.getByRole("button", { name: "Save changes" })).toBeDisabled();
}

/** Runs "Check all for updates" on the Templates page (one bulk request) and reads its report. */
export async function checkAllForUpdates(page: Page, expectedCount: number) {
  await openTemplates(page);
  await page.getByRole("button", { name: "Check all for updates" }).click();
  await expect(page.getByTestId("check-report")).toContainText(`Checked ${expectedCount} template${expectedCount === 1 ? "" : "s"}`);
}

/** Sees the "Update available" badge in a template's row. */
export async function expectUpdateBadge(page: Page, id: string) {
  await expect(templateRow(page, id).getByText("Update available")).toBeVisible();
  await expect(templateRow(page, id).getByRole("button", { name: `Update template ${id}` })).toBeVisible();
}

/**
 * From a template's page, opens "Review update", checks the diff shows `added` and `removed`
 * lines, updates (choosing to overwrite local edits when `force`), and sees the template up to date.
 * `beforeUpdate` runs on the review page (for screenshots).
 */
export async function reviewDiffAndUpdate(
  page: Page,
  id: string,
  {
    force,
    added = [],
    removed = [],
    beforeUpdate,
  }: { force: boolean; added?: string[]; removed?: string[]; beforeUpdate?: () => Promise<void> },
) {
  await openTemplate(page, id);
  const state = page.getByTestId("update-state");
  await expect(state.getByText("Update available")).toBeVisible();
  await state.getByRole("link", { name: "Review update" }).click();
  await expect(pageHeading(page, `Review update of ${id}`)).toBeVisible();
  if (force) {
    // Keeping the edits is what the review offers first; overwriting them is chosen.
    await expect(page.getByRole("radio", { name: "Keep my edits" })).toBeChecked();
    await page.getByText("Overwrite my edits", { exact: true }).click();
  }
  const diff = page.getByTestId("manifest-diff");
  for (const text of added) await expect(diff.locator('[data-change="added"]').filter({ hasText: text }).first()).toBeVisible();
  for (const text of removed) await expect(diff.locator('[data-change="removed"]').filter({ hasText: text }).first()).toBeVisible();
  if (force) {
    await expect(page.getByTestId("local-edits")).toContainText("This template has local edits");
    await expect(page.getByRole("button", { name: "Update template" })).toHaveCount(0);
  }
  await beforeUpdate?.();
  await page.getByRole("button", { name: force ? "Overwrite local edits and update" : "Update template" }).click();
  await expect(page).toHaveURL(new RegExp(`/templates/personal/${id}\\?updated=`));
  await expect(page.getByRole("status").filter({ hasText: "now holds revision" })).toBeVisible();
  await expect(page.getByTestId("update-state").getByText("Up to date")).toBeVisible();
  await expect(page.getByText("Edited locally")).toHaveCount(0);
}

/** Deletes a template from the Templates table, after confirming, and sees its row gone. */
export async function deleteTemplate(page: Page, id: string) {
  await openTemplates(page);
  await templateRow(page, id)
    .getByRole("button", { name: `Delete template ${id}` })
    .click();
  await confirmTemplateDelete(page, id);
}

/** Confirms the "Delete template?" dialog that Delete opened, and sees the template's row gone. */
export async function confirmTemplateDelete(page: Page, id: string) {
  const confirm = page.getByRole("dialog", { name: "Delete template?", exact: true });
  await expect(confirm).toContainText(id);
  await confirm.getByRole("button", { name: "Delete template" }).click();
  await expect(confirm).toBeHidden();
  await expect(templateRow(page, id)).toHaveCount(0);
}
