import type { Page } from "@playwright/test";
import { apiCall, createFreshUser, deleteIfPresent } from "./support/api";
import { pageHeading, signIn } from "./support/console";
import { E2E_ADMIN_PASSWORD, E2E_ADMIN_TOKEN } from "./support/env";
import { expect, screenshot, screenshotBoth, test } from "./support/fixtures";
import { e2eManifest } from "./support/marketplace";
import { manifestValue } from "./support/template-steps";

// A template's versions in the console (CONTRACT §13): member vera's template, made and then
// edited through the API, has two versions; she compares them, looks at one, rolls back to
// the first and then undoes that by rolling back again. An admin sees a server template's
// versions; a member may not.
test.describe.configure({ mode: "serial" });

const VERA = { id: "vera", password: "vera's long e2e password" };
const TEMPLATE = "faq-notes";
const SERVER_TEMPLATE = "team-faq";
const admin = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

const FIRST = {
  id: TEMPLATE,
  name: "FAQ notes",
  description: "Questions customers ask often.",
  tags: ["faq"],
  manifest: e2eManifest(),
};
const EDITS = {
  name: "FAQ notes (reviewed)",
  tags: ["faq", "reviewed"],
  manifest: e2eManifest({
    directives: [
      { name: "Be kind", content: "Answer customers warmly and plainly." },
      { name: "Link the article", content: "Link the help-centre article that answers it." },
    ],
  }),
};

const versionsUrl = (scope: "personal" | "server", id: string) => `/templates/${scope}/${id}/versions`;
const versionRow = (page: Page, version: number) => page.getByTestId(`version-row-${version}`);

/** Opens a template's versions page and waits for its table. */
async function openVersions(page: Page, scope: "personal" | "server", id: string) {
  await page.goto(versionsUrl(scope, id));
  await expect(pageHeading(page, `Versions of ${id}`)).toBeVisible();
  await expect(page.getByTestId("versions-table")).toBeVisible();
}

/** Rolls back to `version` from its row, after reading the confirmation, and sees the status and the new current row. */
async function rollBackTo(page: Page, version: number, recorded: number) {
  await page.getByRole("button", { name: `Roll back to version ${version}`, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Roll back ${TEMPLATE}?` });
  await expect(dialog).toContainText(`become those of version ${version}`);
  await expect(dialog).toContainText("recorded as a new version, so you can undo it by rolling back again");
  await dialog.getByRole("button", { name: "Roll back", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Rolled back to" })).toHaveText(
    new RegExp(`Rolled back to version ${version}; this is version ${recorded}\\.`),
  );
  const row = versionRow(page, recorded);
  await expect(row).toContainText(`Restored version ${version}`);
  await expect(row).toContainText("Current");
}

test("setup: member vera has a template, made and then edited through the API", async ({ request }) => {
  // A clean slate: a CI retry runs the whole serial file again on the same data. (A deleted template's versions go with it.)
  await deleteIfPresent(request, `/ext/svc/admin/templates/${SERVER_TEMPLATE}`);
  await createFreshUser(request, { id: VERA.id, display_name: "Vera", password: VERA.password });
  const key = await apiCall(request, "POST", `/ext/svc/admin/users/${VERA.id}/api-keys`, admin, { description: "versions e2e setup" });
  const vera = { authorization: `Bearer ${key!.token as string}` };
  await apiCall(request, "POST", "/ext/svc/me/templates", vera, FIRST);
  await apiCall(request, "PATCH", `/ext/svc/me/templates/${TEMPLATE}`, vera, EDITS);
});

test("vera sees the versions, compares them and opens the first one", async ({ page }) => {
  await signIn(page, VERA.id, VERA.password);
  await openVersions(page, "personal", TEMPLATE);
  const breadcrumb = page.getByRole("navigation", { name: "Breadcrumb" });
  await expect(breadcrumb.getByRole("link", { name: "Templates" })).toBeVisible();
  await expect(breadcrumb.getByRole("link", { name: TEMPLATE })).toBeVisible();
  await expect(breadcrumb.getByText("Versions", { exact: true })).toHaveAttribute("aria-current", "page");

  const table = page.getByTestId("versions-table");
  await expect(table.getByRole("caption")).toHaveText("2 versions, newest first; the newest is the current content");
  await expect(versionRow(page, 2)).toContainText("Edited");
  await expect(versionRow(page, 2)).toContainText("Current");
  await expect(versionRow(page, 2)).toContainText(VERA.id);
  await expect(versionRow(page, 1)).toContainText("Created");
  await expect(versionRow(page, 1)).not.toContainText("Current");
  // The current version can be looked at, not rolled back to.
  await expect(page.getByRole("button", { name: "Roll back to version 2" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Roll back to version 1" })).toBeVisible();

  // By default the version before the current one is compared with the current one.
  const from = page.getByRole("combobox", { name: "Compare from" });
  const to = page.getByRole("combobox", { name: "Compare to" });
  await expect(from).toHaveValue("1");
  await expect(to).toHaveValue("2");
  const details = page.getByTestId("details-diff");
  const nameRow = details.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "Name", exact: true }) });
  await expect(nameRow).toContainText("FAQ notes");
  await expect(nameRow).toContainText("FAQ notes (reviewed)");
  await expect(details.getByRole("rowheader", { name: "Tags", exact: true })).toBeVisible();
  await expect(details.getByRole("rowheader", { name: "Description", exact: true })).toHaveCount(0); // unchanged
  const diff = page.getByTestId("manifest-diff");
  await expect(diff).toContainText("from version 1 to version 2 (current)");
  await expect(
    diff.locator('[data-change="added"]').filter({ hasText: "Link the help-centre article that answers it." }).first(),
  ).toBeVisible();
  await expect(diff.locator('[data-change="removed"]').filter({ hasText: "Name the ticket each fact comes from." }).first()).toBeVisible();
  await screenshotBoth(page, "template-versions");

  // The other way round, and a version against itself.
  await from.selectOption("2");
  await to.selectOption("1");
  await expect(diff).toContainText("from version 2 (current) to version 1");
  await expect(diff.locator('[data-change="added"]').filter({ hasText: "Name the ticket each fact comes from." }).first()).toBeVisible();
  await to.selectOption("2");
  await expect(page.getByText("Pick two different versions to see what changed between them.")).toBeVisible();
  await expect(diff).toHaveCount(0);

  // "Compare" on a row compares that version with the current one.
  await page.getByRole("button", { name: "Compare version 1 with the current one" }).click();
  await expect(from).toHaveValue("1");
  await expect(to).toHaveValue("2");
  await expect(diff).toContainText("from version 1 to version 2 (current)");
  await page.getByTestId("manifest-diff").getByText("Inline", { exact: true }).click();
  await screenshot(page, "template-versions-diff");

  // One version's whole content, read-only.
  await page.getByRole("button", { name: "View version 1", exact: true }).click();
  const drawer = page.getByRole("dialog", { name: `Version 1 of ${TEMPLATE}` });
  await expect(drawer.getByTestId("version-details")).toContainText("FAQ notes");
  await expect(drawer.getByTestId("version-details")).toContainText("Questions customers ask often.");
  await expect(drawer.getByTestId("version-manifest")).toContainText('"content": "Name the ticket each fact comes from."');
  await expect(drawer.getByRole("button", { name: "Roll back to version 1" })).toBeVisible();
  await drawer.getByRole("button", { name: "Close" }).click();
  await expect(drawer).toBeHidden();
});

test("vera rolls back to version 1, then undoes that by rolling back to version 2", async ({ page }) => {
  await signIn(page, VERA.id, VERA.password);
  await openVersions(page, "personal", TEMPLATE);
  await rollBackTo(page, 1, 3);
  // The comparison now shows what the rollback changed.
  await expect(page.getByRole("combobox", { name: "Compare from" })).toHaveValue("2");
  await expect(page.getByRole("combobox", { name: "Compare to" })).toHaveValue("3");

  // The template holds version 1's content again.
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: TEMPLATE }).click();
  await expect(pageHeading(page, FIRST.name)).toBeVisible();
  await expect(manifestValue(page)).toHaveValue(/Name the ticket each fact comes from\./);
  await expect(manifestValue(page)).not.toHaveValue(/Link the help-centre article/);

  // A rollback is a version like any other: rolling back to version 2 undoes it.
  await openVersions(page, "personal", TEMPLATE);
  await rollBackTo(page, 2, 4);
  await expect(page.getByTestId("versions-table").getByRole("caption")).toHaveText(
    "4 versions, newest first; the newest is the current content",
  );
  await expect(versionRow(page, 3)).toContainText("Restored version 1");
  await expect(versionRow(page, 3)).not.toContainText("Current");
  await expect(page.getByTestId("manifest-diff")).toContainText("from version 3 to version 4 (current)");

  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: TEMPLATE }).click();
  await expect(pageHeading(page, EDITS.name)).toBeVisible();
  await expect(manifestValue(page)).toHaveValue(/Link the help-centre article that answers it\./);
});

test("the template page says what it holds, and what each of its newest versions changed", async ({ page }) => {
  await signIn(page, VERA.id, VERA.password);
  await page.goto(`/templates/personal/${TEMPLATE}`);
  await expect(pageHeading(page, EDITS.name)).toBeVisible();

  const summary = page.getByTestId("template-summary");
  await expect(summary.getByTestId("template-summary-line")).toHaveText("2 mental models, 2 directives, 2 bank settings");
  await expect(summary).toContainText("Open tickets, Known fixes");
  await expect(summary).toContainText("Be kind, Link the article");
  await expect(summary).toContainText("retain_mission");
  await expect(summary).toContainText("#faq");

  // Newest first, each with its date and what it changed from the version before it.
  const changelog = page.getByTestId("template-changelog");
  const entry = (version: number) => changelog.getByTestId(`changelog-version-${version}`);
  await expect(changelog.getByRole("listitem")).toHaveCount(4);
  const twoWays = "Name changed; tags changed; 1 directive added, 1 removed.";
  await expect(entry(4)).toContainText("Restored version 2");
  await expect(entry(4).getByTestId("changelog-changes")).toHaveText(twoWays);
  await expect(entry(3)).toContainText("Restored version 1");
  await expect(entry(3).getByTestId("changelog-changes")).toHaveText(twoWays);
  await expect(entry(2)).toContainText("Edited");
  await expect(entry(2).getByTestId("changelog-changes")).toHaveText(twoWays);
  await expect(entry(1)).toContainText("Created");
  await expect(entry(1).getByTestId("changelog-changes")).toHaveText("First version.");
  await expect(entry(1).locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
  await summary.scrollIntoViewIfNeeded();
  await screenshotBoth(page, "template-summary-changelog");

  await changelog.getByRole("link", { name: "Versions: compare any two, roll back" }).click();
  await expect(pageHeading(page, `Versions of ${TEMPLATE}`)).toBeVisible();
});

test("a template that is not there says so", async ({ page, watch }) => {
  watch.expectError(/\/versions → 404|status of 404/);
  await signIn(page, VERA.id, VERA.password);
  await page.goto(versionsUrl("personal", "no-such-template"));
  await expect(pageHeading(page, "Template not found")).toBeVisible();
  await expect(page.getByText("There is no template no-such-template")).toBeVisible();
});

test("the admin sees a server template's versions; a member gets the 403 page", async ({ page, request }) => {
  await apiCall(request, "POST", "/ext/svc/admin/templates", admin, { id: SERVER_TEMPLATE, name: "Team FAQ", manifest: e2eManifest() });
  await apiCall(request, "PATCH", `/ext/svc/admin/templates/${SERVER_TEMPLATE}`, admin, { description: "Shared with the whole team." });

  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await openVersions(page, "server", SERVER_TEMPLATE);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Server templates" })).toBeVisible();
  await expect(versionRow(page, 2)).toContainText("Edited");
  await expect(versionRow(page, 1)).toContainText("Created");
  const descriptionRow = page
    .getByTestId("details-diff")
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: "Description" }) });
  await expect(descriptionRow).toContainText("Shared with the whole team.");
  await expect(page.getByTestId("manifest-diff")).toHaveText("The manifests are the same.");

  await page.context().clearCookies();
  await signIn(page, VERA.id, VERA.password);
  // A member reads what a server template holds, not its versions (CONTRACT §13): no changelog.
  await page.goto(`/templates/server/${SERVER_TEMPLATE}`);
  await expect(pageHeading(page, "Team FAQ")).toBeVisible();
  await expect(page.getByTestId("template-summary-line")).toHaveText("2 mental models, 2 directives, 2 bank settings");
  await expect(page.getByTestId("template-changelog")).toHaveCount(0);
  await page.goto(versionsUrl("server", SERVER_TEMPLATE));
  await expect(pageHeading(page, "Administrators only")).toBeVisible();
  await expect(page.getByTestId("forbidden")).toContainText("signed in as vera");
  await expect(page.getByTestId("versions-table")).toHaveCount(0);
});

test("cleanup: the templates and vera go", async ({ request }) => {
  await apiCall(request, "DELETE", `/ext/svc/admin/templates/${SERVER_TEMPLATE}`, admin);
  await apiCall(request, "DELETE", `/ext/svc/admin/users/${VERA.id}`, admin);
});
