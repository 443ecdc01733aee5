import { type APIRequestContext, request as apiRequest, type Page } from "@playwright/test";
import { ADMIN_HEADERS, createFreshUser, deleteIfPresent, expectOk } from "./support/api";
import { consoleNav, pageHeading, signIn } from "./support/console";
import { E2E_ADMIN_PASSWORD, E2E_BASE_URL } from "./support/env";
import { expect, screenshotBoth, test } from "./support/fixtures";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";

// Sources can be fixed (CONTRACT §16): a source whose catalog cannot be read right after it was
// added says why in its row (naming MARKETPLACE_ALLOWED_HOSTS for a host the server refuses),
// stays saved, and Edit fixes its URL; the token is kept, replaced or removed, never shown.
test.describe.configure({ mode: "serial" });

const MIRA = { id: "mira", password: "mira's long e2e password" };
const market = new E2eMarketplace();
// Another marketplace host (another port: another origin), for a source moved there.
const elsewhere = new E2eMarketplace();
let admin: APIRequestContext;

const entry = (id: string, name: string): CatalogEntry => ({
  id,
  name,
  description: `${name}, for the sources tests.`,
  manifest: e2eManifest(),
});

test.beforeAll(async () => {
  await Promise.all([market.start(), elsewhere.start()]);
  market.setCatalog("fixable", [entry("notes-a", "Notes A"), entry("notes-b", "Notes B"), entry("notes-c", "Notes C")]);
  market.setCatalog("company", [entry("handbook", "Team handbook")]);
  admin = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: ADMIN_HEADERS });
  await createFreshUser(admin, { id: MIRA.id, display_name: "Mira", password: MIRA.password });
  await deleteIfPresent(admin, "/ext/svc/admin/template-sources/company");
  await deleteIfPresent(admin, "/ext/svc/admin/template-sources/moving");
});

test.afterAll(async () => {
  await admin.delete("/ext/svc/admin/template-sources/company");
  await admin.delete(`/ext/svc/admin/users/${MIRA.id}`);
  await admin.delete("/ext/svc/admin/template-sources/moving");
  await Promise.all([admin.dispose(), market.stop(), elsewhere.stop()]);
});

/** A source's row, by the name in its row header (which holds the description too). */
const sourceRow = (page: Page, name: string) =>
  page
    .getByTestId("sources-table")
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader").getByText(name, { exact: true }) });

/** Adds a server source with a token through the API, and opens its row as the admin sees it on the Server tab. */
async function serverSourceWithToken(page: Page, name: string, url: string, token: string) {
  await expectOk(await admin.post("/ext/svc/admin/template-sources", { data: { url, alias: name, auth_token: token } }));
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await consoleNav(page).getByRole("link", { name: "Sources", exact: true }).click();
  await page.getByRole("tab", { name: "Server" }).click();
  return sourceRow(page, name);
}

test("a source whose catalog fails when added shows why, and Edit fixes its URL", async ({ page, watch }) => {
  // "localhost" is not in the e2e server's MARKETPLACE_ALLOWED_HOSTS (127.0.0.1 is): refused as a loopback address.
  watch.expectError(/catalog\S* → 502|status of 502/);
  await signIn(page, MIRA.id, MIRA.password);
  await consoleNav(page).getByRole("link", { name: "Sources", exact: true }).click();
  await expect(pageHeading(page, "Template sources")).toBeVisible();
  await page.getByRole("button", { name: "Add source" }).click();
  const add = page.getByRole("dialog", { name: "Add a personal source", exact: true });
  // The dialog says a folder works as well as a catalog file or a repository.
  await expect(add.getByText(/a folder that holds templates\.json/)).toBeVisible();
  await add.getByLabel("URL").fill(`http://localhost:${new URL(market.url).port}/fixable`);
  await add.getByLabel("Alias").fill("fixable");
  await add.getByRole("button", { name: "Add source" }).click();
  await expect(add).toBeHidden();

  // Saved all the same, with the failure and what would allow the host in its row.
  const row = sourceRow(page, "fixable");
  await expect(row.getByTestId("source-catalog-error")).toContainText("loopback address");
  await expect(row.getByText(/an administrator can allow its host by adding it to MARKETPLACE_ALLOWED_HOSTS/)).toBeVisible();
  await expect(row.getByText("Last fetch failed")).toBeVisible();
  // Never fetched for that reason: the failure alone, not "Never fetched" beside it.
  await expect(row.getByTestId("source-catalog-status")).not.toContainText("Never fetched");
  await screenshotBoth(page, "lifecycle-source-check-failed");

  await row.getByRole("button", { name: "Edit source fixable" }).click();
  const edit = page.getByRole("dialog", { name: "Edit source fixable", exact: true });
  await expect(edit.getByLabel("URL")).toHaveValue(`http://localhost:${new URL(market.url).port}/fixable`);
  await expect(edit.getByText("No token is stored.")).toBeVisible();
  await edit.getByLabel("URL").fill(market.sourceUrl("fixable"));
  await edit.getByLabel("Description").fill("Mira's notes templates.");
  await screenshotBoth(page, "lifecycle-source-edit");
  await edit.getByRole("button", { name: "Save source" }).click();
  await expect(edit).toBeHidden();

  await expect(row.getByTestId("source-check-result")).toHaveText(/3 templates found/);
  await expect(row.getByTestId("source-catalog-error")).toHaveCount(0);
  await expect(row).toContainText(market.sourceUrl("fixable"));
  await expect(row.getByTestId("source-description")).toHaveText("Mira's notes templates.");
  await expect(row.getByText("Never fetched")).toHaveCount(0);

  // The marketplace shows the fixed source's catalog too.
  await consoleNav(page).getByRole("link", { name: "Marketplace", exact: true }).click();
  await expect(pageHeading(page, "Marketplace")).toBeVisible();
  await expect(page.getByTestId("catalog-entry-notes-a").first()).toBeVisible();
});

test("an admin keeps, replaces and removes a server source's token without ever seeing it", async ({ page }) => {
  const row = await serverSourceWithToken(page, "company", market.sourceUrl("company"), "first-company-token");
  await expect(row.getByText("Stored")).toBeVisible();

  const openEdit = async () => {
    await row.getByRole("button", { name: "Edit source company" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit source company", exact: true });
    await expect(dialog.getByText("A token is stored. It is never shown; keep, replace or remove it.")).toBeVisible();
    await expect(dialog.getByText("first-company-token")).toHaveCount(0);
    return dialog;
  };

  // Replace: a new token field, then the source says a token is stored, and its catalog is fetched with it.
  let dialog = await openEdit();
  await dialog.getByText("Replace token", { exact: true }).click();
  await dialog.getByLabel("New token").fill("second-company-token");
  await dialog.getByRole("button", { name: "Save source" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId("source-check-result")).toHaveText(/1 template found/);
  await expect(row.getByText("Stored")).toBeVisible();

  // Remove: the token goes.
  dialog = await openEdit();
  await dialog.getByText("Remove token", { exact: true }).click();
  await expect(dialog.getByText(/The stored token is deleted when you save/)).toBeVisible();
  await dialog.getByRole("button", { name: "Save source" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText("None", { exact: true })).toBeVisible();
  const [listed] = (await (await admin.get("/ext/svc/admin/template-sources")).json()).filter(
    (s: { name: string }) => s.name === "company",
  );
  expect(listed).toMatchObject({ has_auth: false, url: market.sourceUrl("company") });
});

test("the dialog says a kept token stays with its host when the URL moves to another, and saving drops it", async ({ page }) => {
  market.setCatalog("moving", [entry("moved", "Moved notes")]);
  elsewhere.setCatalog("moving", [entry("moved", "Moved notes")]);
  const row = await serverSourceWithToken(page, "moving", market.sourceUrl("moving"), "token-for-the-first-host");
  await row.getByRole("button", { name: "Edit source moving" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit source moving", exact: true });
  const warning = dialog.getByTestId("token-host-changed");

  // Another path on the same host keeps the token: nothing to say.
  await dialog.getByLabel("URL").fill(`${market.url}/moving-elsewhere`);
  await expect(warning).toHaveCount(0);
  await dialog.getByLabel("URL").fill(elsewhere.sourceUrl("moving"));
  await expect(warning).toHaveText(
    `The token is for ${market.url}; it will not be sent to ${elsewhere.url}, and saving removes it. Enter the token for the new host under Replace token, or leave it without one.`,
  );
  // A token for the new host: nothing left behind.
  await dialog.getByText("Replace token", { exact: true }).click();
  await expect(warning).toHaveCount(0);
  await dialog.getByText("Keep token", { exact: true }).click();
  await expect(warning).toBeVisible();

  await dialog.getByRole("button", { name: "Save source" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId("source-check-result")).toHaveText(/1 template found/);
  await expect(row.getByText("None", { exact: true })).toBeVisible();
});
