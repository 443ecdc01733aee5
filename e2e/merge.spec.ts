import { type APIRequestContext, request as apiRequest, type Page } from "@playwright/test";
import { ADMIN_HEADERS, createFreshUser, expectOk } from "./support/api";
import { axeFindings } from "./support/axe";
import { pageHeading, signIn } from "./support/console";
import { E2E_BASE_URL } from "./support/env";
import { expect, screenshotBoth, test } from "./support/fixtures";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";

// Updating a template that has local edits without losing them (CONTRACT §16, §21): member mira
// edited three installed templates; the source changed them all. One merges cleanly, and keeping
// her edits is what the review offers first; another conflicts on two paths, which she resolves
// one by one on the review page, one with a value she edits, saved as one `merge` version.
test.describe.configure({ mode: "serial" });

const MIRA = { id: "mira", password: "mira's long e2e password" };
const T = "/ext/svc/me/templates";
const market = new E2eMarketplace();
let mira: APIRequestContext;

const entry = (id: string, overrides: Partial<CatalogEntry> = {}): CatalogEntry => ({
  id,
  name: `Notes ${id}`,
  description: "Support notes, for the merge tests.",
  category: "support",
  integrations: ["slack"],
  tags: ["support"],
  manifest: e2eManifest(),
  ...overrides,
});
const directives = (kind: string, cite = "Name the ticket each fact comes from.") => [
  { name: "Be kind", content: kind },
  { name: "Cite tickets", content: cite },
];

const IDS = ["merge-clean", "merge-clash", "merge-moved"];
/** The source after mira's edits: changes to other parts of merge-clean, to the same parts of the others. */
const changedCatalog = (movedName: string, movedDescription?: string) => [
  entry("merge-clean", { tags: ["support", "reviewed"], manifest: e2eManifest({ directives: directives("Answer customers warmly.") }) }),
  entry("merge-clash", {
    name: "Upstream notes",
    tags: ["support", "v2"],
    manifest: e2eManifest({ directives: directives("Answer plainly and briefly.") }),
  }),
  entry("merge-moved", { name: movedName, ...(movedDescription ? { description: movedDescription } : {}) }),
];

test.beforeAll(async () => {
  await market.start();
  market.setCatalog(
    "merge",
    IDS.map((id) => entry(id)),
  );
  // A fresh mira: a CI retry runs the whole serial file again, and deleting her removes what she owned.
  await createFreshUser(await apiRequest.newContext({ baseURL: E2E_BASE_URL }), {
    id: MIRA.id,
    display_name: "Mira",
    password: MIRA.password,
  });
  const admin = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: ADMIN_HEADERS });
  const key = (await (
    await expectOk(await admin.post(`/ext/svc/admin/users/${MIRA.id}/api-keys`, { data: { description: "e2e" } }))
  ).json()) as {
    token: string;
  };
  await admin.dispose();
  mira = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${key.token}` } });
  await expectOk(await mira.post("/ext/svc/me/template-sources", { data: { url: market.sourceUrl("merge"), alias: "merge" } }));
  for (const id of IDS) await expectOk(await mira.post(`${T}/${id}/install`, { data: { source_name: "merge" } }));

  // Her edits…
  await expectOk(await mira.patch(`${T}/merge-clean`, { data: { description: "Mira's support notes." } }));
  await expectOk(
    await mira.patch(`${T}/merge-clash`, {
      data: { name: "Mira's notes", manifest: e2eManifest({ directives: directives("Answer warmly, and say thanks.") }) },
    }),
  );
  await expectOk(await mira.patch(`${T}/merge-moved`, { data: { name: "Mira's moved notes" } }));
  // …and the source's.
  market.setCatalog("merge", changedCatalog("Upstream moved notes"));
});

test.afterAll(async () => {
  const admin = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: ADMIN_HEADERS });
  await admin.delete(`/ext/svc/admin/users/${MIRA.id}`);
  await Promise.all([admin.dispose(), mira.dispose(), market.stop()]);
});

/** Opens the review page of an edited template: keeping the edits is chosen, overwriting them is not. */
async function openReview(page: Page, id: string) {
  await page.goto(`/templates/personal/${id}/update`);
  await expect(pageHeading(page, `Review update of ${id}`)).toBeVisible();
  await expect(page.getByTestId("local-edits")).toContainText("You can keep your edits");
  await expect(page.getByRole("radio", { name: "Keep my edits" })).toBeChecked();
  await expect(page.getByRole("radio", { name: "Overwrite my edits" })).not.toBeChecked();
}

/** After the update: the template's page says the edits were kept, and still marks them. */
async function expectUpdatedAndEdited(page: Page, id: string) {
  await expect(page).toHaveURL(new RegExp(`/templates/personal/${id}\\?updated=`));
  const notice = page.getByRole("status").filter({ hasText: "now holds revision" });
  await expect(notice).toContainText("Updated from source; your edits kept");
  await expect(page.getByText("Edited locally")).toBeVisible();
}

/** The fields of a template these tests read. */
interface TemplateSeen {
  name: string;
  description: string | null;
  tags: string[];
  locally_modified: boolean;
  source_revision: string;
  latest_revision: string;
  manifest: { directives: { name: string; content: string }[] };
}
const template = async (id: string) => (await (await expectOk(await mira.get(`${T}/${id}`))).json()) as TemplateSeen;
const versions = async (id: string) =>
  (
    (await (await expectOk(await mira.get(`${T}/${id}/versions`))).json()) as {
      versions: { version: number; action: string; locally_modified: boolean; source_revision: string }[];
    }
  ).versions;

test("mira keeps her edit and takes the source's changes in one step: the review offers that first", async ({ page }) => {
  await signIn(page, MIRA.id, MIRA.password);
  await openReview(page, "merge-clean");
  const clean = page.getByTestId("merge-clean");
  await expect(clean).toContainText("touch different parts");
  // What the merge writes, against the template now: upstream's tag and directive; her description stays.
  await expect(clean.getByTestId("details-diff")).toContainText("support, reviewed");
  await expect(clean.getByTestId("details-diff")).not.toContainText("description");
  await expect(
    clean.getByTestId("manifest-diff").locator('[data-change="added"]').filter({ hasText: "Answer customers warmly." }).first(),
  ).toBeVisible();
  await screenshotBoth(page, "lifecycle-merge-clean");
  expect(await axeFindings(page, { path: page.url(), width: 1280, scheme: "light", state: "merge without conflicts" })).toEqual([]);

  await clean.getByRole("button", { name: "Keep my edits and take upstream's" }).click();
  await expectUpdatedAndEdited(page, "merge-clean");
  const now = await template("merge-clean");
  expect(now).toMatchObject({ description: "Mira's support notes.", tags: ["support", "reviewed"], locally_modified: true });
  expect(now.source_revision).toBe(now.latest_revision);
  expect(now.manifest.directives[0]!.content).toBe("Answer customers warmly.");
  expect((await versions("merge-clean"))[0]).toMatchObject({ action: "update", locally_modified: true });
});

test("mira resolves two conflicts path by path, one with a value she edits, saved as one merge version", async ({ page }) => {
  await signIn(page, MIRA.id, MIRA.password);
  const before = await versions("merge-clash");
  await openReview(page, "merge-clash");
  const section = page.getByTestId("merge-conflicts");
  await expect(section).toContainText("changed 2 parts");
  const conflict = (path: string) => section.locator(`[data-testid="merge-conflict"][data-path="${path}"]`);
  await expect(section.getByTestId("merge-conflict")).toHaveCount(2);
  // Each path named in words, its three sides as text, the words only one side has marked (and
  // said to screen readers: the brackets are not shown).
  await expect(conflict("name").getByRole("heading", { name: "Name" })).toBeVisible();
  await expect(conflict("name").getByTestId("conflict-base")).toContainText("Notes merge-clash");
  await expect(conflict("name").getByTestId("conflict-local")).toContainText("[only in mine: Mira's] notes");
  await expect(conflict("name").getByTestId("conflict-upstream")).toContainText("[only in upstream's: Upstream] notes");
  const directive = conflict("manifest.directives[0].content");
  await expect(directive.getByRole("heading", { name: "Directive “Be kind”: content" })).toBeVisible();
  await expect(directive.getByTestId("conflict-local")).toContainText("Answer [only in mine: warmly,] and [only in mine: say thanks].");
  await expect(directive.getByTestId("conflict-upstream")).toContainText(
    "Answer [only in upstream's: plainly] and [only in upstream's: briefly].",
  );
  await expect(directive.getByTestId("conflict-local").locator("del")).toHaveCount(2);
  await expect(directive.getByTestId("conflict-upstream").locator("ins")).toHaveCount(2);
  const save = section.getByRole("button", { name: "Save merged" });
  await expect(save).toBeDisabled();
  await screenshotBoth(page, "lifecycle-merge-conflicts");
  expect(await axeFindings(page, { path: page.url(), width: 1280, scheme: "light", state: "merge conflicts" })).toEqual([]);

  await conflict("name").getByRole("radio", { name: "Upstream" }).check();
  await expect(save).toBeDisabled();
  // Her own wording, combining both: the field starts from hers.
  await directive.getByRole("radio", { name: "An edited value" }).check();
  const value = directive.getByRole("textbox", { name: "Edited value for Directive “Be kind”: content" });
  await expect(value).toHaveValue("Answer warmly, and say thanks.");
  await value.fill("");
  // Checked as the manifest it makes: at the field, and above the save.
  await expect(directive.getByText("The value must not be blank.")).toBeVisible();
  await expect(section.getByTestId("merge-invalid")).toContainText("manifest.directives[0].content must not be blank");
  await expect(save).toBeDisabled();
  await value.fill("Answer warmly and briefly, and say thanks.");
  await expect(section).toContainText("2 of 2 chosen");
  // The result of the choices, against the template now: upstream's name and tag, her edited directive.
  await expect(section.getByTestId("details-diff")).toContainText("Upstream notes");
  await expect(
    section
      .getByTestId("manifest-diff")
      .locator('[data-change="added"]')
      .filter({ hasText: "Answer warmly and briefly, and say thanks." })
      .first(),
  ).toBeVisible();
  await expect(save).toBeEnabled();
  await screenshotBoth(page, "lifecycle-merge-edited-value");
  expect(await axeFindings(page, { path: page.url(), width: 1280, scheme: "light", state: "merge conflict with an edited value" })).toEqual(
    [],
  );
  await save.click();

  await expectUpdatedAndEdited(page, "merge-clash");
  const now = await template("merge-clash");
  expect(now).toMatchObject({ name: "Upstream notes", tags: ["support", "v2"], locally_modified: true });
  expect(now.source_revision).toBe(now.latest_revision);
  expect(now.manifest.directives[0]!.content).toBe("Answer warmly and briefly, and say thanks.");
  // One version, written at once: never a moment holding upstream's text.
  const after = await versions("merge-clash");
  expect(after).toHaveLength(before.length + 1);
  expect(after[0]).toMatchObject({
    version: before[0]!.version + 1,
    action: "merge",
    locally_modified: true,
    source_revision: now.source_revision,
  });
  await page.goto(`/templates/personal/merge-clash/versions`);
  await expect(
    page.getByTestId(`version-row-${after[0]!.version}`).getByText("Merged with source").filter({ visible: true }),
  ).toBeVisible();
  await expect(page.getByTestId("versions-table").getByText("Merged with source").filter({ visible: true })).toHaveCount(1);
});

test("the source changing between the review and the save: nothing is written, the review shows the merge as it now is, and a later change is told", async ({
  page,
  watch,
}) => {
  await signIn(page, MIRA.id, MIRA.password);
  const before = await template("merge-moved");
  await openReview(page, "merge-moved");
  const section = page.getByTestId("merge-conflicts");
  const name = section.locator('[data-testid="merge-conflict"][data-path="name"]');
  await expect(name.getByTestId("conflict-upstream")).toContainText("[only in upstream's: Upstream] moved notes");
  await name.getByRole("radio", { name: "Mine" }).check();
  // The source publishes again while mira decides: its rename undone (the name is no conflict any more), its description reworded.
  market.setCatalog("merge", changedCatalog("Notes merge-moved", "Support notes, second edition."));
  watch.expectError(
    /merge-moved\/update\?force=false&merge=true → 422|status of 422 \([^)]*\) \(\S+merge-moved\/update\?force=false&merge=true\)/,
  );
  await section.getByRole("button", { name: "Save merged" }).click();

  await expect(page.getByTestId("merge-stale")).toContainText("Nothing was saved");
  // The merge as it now is: clean, her name kept.
  await expect(page.getByTestId("merge-clean")).toBeVisible();
  expect(await template("merge-moved")).toEqual(before);
  expect((await versions("merge-moved"))[0]).toMatchObject({ action: "patch", locally_modified: true });

  // It publishes once more before she keeps her edits: the template page says it holds what she did not review.
  market.setCatalog("merge", changedCatalog("Notes merge-moved", "Support notes, third edition."));
  await page.getByTestId("merge-clean").getByRole("button", { name: "Keep my edits and take upstream's" }).click();
  await expectUpdatedAndEdited(page, "merge-moved");
  await expect(page.getByTestId("updated-notice")).toContainText("after you reviewed revision");
  expect(await template("merge-moved")).toMatchObject({ name: "Mira's moved notes", description: "Support notes, third edition." });
});
