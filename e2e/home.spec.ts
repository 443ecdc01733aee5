import { type APIRequestContext, request as apiRequest, type Page } from "@playwright/test";
import { createFreshUser, deleteBankIfPresent, deleteIfPresent, expectOk } from "./support/api";
import { consoleNav, pageHeading, signIn, signOut } from "./support/console";
import { E2E_ADMIN_TOKEN, E2E_BASE_URL } from "./support/env";
import { expect, screenshot, screenshotBoth, test } from "./support/fixtures";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";

// Issue 23, Home: signed in, `/` says what needs attention, each row a link to where it is
// handled. Admin hana and member milo first see an empty server (the first steps, not "nothing
// needs your attention"), then: a template of each with an update waiting (hana's personal one,
// and a server template both see), a bank of each behind its template, a personal and a server
// source whose catalog fetch fails, and a key of milo's that expires tomorrow (hana's card of
// expiring keys). Member noor has none of his own: Home and Templates offer the server's
// (issue 33). A server template whose source moved on unchecked: Home says when the server's
// were last checked, and hana's "Check for updates now" finds it for everyone.
test.describe.configure({ mode: "serial" });

const HANA = { id: "home-hana", password: "hana's long home password" };
const MILO = { id: "home-milo", password: "milo's long home password" };
const NOOR = { id: "home-noor", password: "noor's long home password" };
const HANDBOOK = "home-handbook";
const GUIDE = "home-guide";
const NOTES = "home-notes";
const HANA_BANK = "home-hana-bank";
const MILO_BANK = "home-milo-bank";
const SERVER_SOURCE = "home-server";
const BROKEN_SERVER_SOURCE = "home-server-broken";
const market = new E2eMarketplace();
let admin: APIRequestContext;

const handbook = (edition: string): CatalogEntry => ({
  id: HANDBOOK,
  name: "Home handbook",
  manifest: e2eManifest({ directives: [{ name: "Edition", content: `Quote the ${edition} edition.` }] }),
});
const guide = (edition: string): CatalogEntry => ({
  id: GUIDE,
  name: "Home guide",
  manifest: e2eManifest({ directives: [{ name: "Guide", content: `Follow the ${edition} guide.` }] }),
});

/** An API context acting as `userId`, through a key the admin makes for it. */
async function actingAs(userId: string) {
  const key = await expectOk(await admin.post(`/ext/svc/admin/users/${userId}/api-keys`, { data: { description: "home e2e setup" } }));
  return apiRequest.newContext({
    baseURL: E2E_BASE_URL,
    extraHTTPHeaders: { authorization: `Bearer ${((await key.json()) as { token: string }).token}` },
  });
}

test.beforeAll(async () => {
  await market.start();
  admin = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  // A clean slate: a CI retry runs the whole serial file again on the same data.
  await cleanUp();
  await expectEmptyServer();
  await createFreshUser(admin, { id: HANA.id, display_name: "Hana", password: HANA.password, role: "admin" });
  await createFreshUser(admin, { id: MILO.id, display_name: "Milo", password: MILO.password });
  await createFreshUser(admin, { id: NOOR.id, display_name: "Noor", password: NOOR.password });
});

async function cleanUp() {
  for (const bank of [HANA_BANK, MILO_BANK]) await deleteBankIfPresent(admin, bank);
  for (const template of [HANDBOOK, GUIDE]) await deleteIfPresent(admin, `/ext/svc/admin/templates/${template}`);
  for (const source of [SERVER_SOURCE, BROKEN_SERVER_SOURCE]) await deleteIfPresent(admin, `/ext/svc/admin/template-sources/${source}`);
  // Their personal sources, templates and keys go with them.
  for (const user of [HANA, MILO, NOOR]) await deleteIfPresent(admin, `/ext/svc/admin/users/${user.id}`);
}

/**
 * Home's first steps need a server with no bank, server template or server source: an earlier
 * spec file on this worker's server that left one behind is named here, not as a summary that
 * reads differently.
 */
async function expectEmptyServer() {
  const names = async (path: string, key?: string) => {
    const body = (await (await expectOk(await admin.get(path))).json()) as Record<string, unknown>;
    const items = (key ? body[key] : body) as { id?: string; bank_id?: string; name?: string }[];
    return items.map((item) => item.bank_id ?? item.id ?? item.name);
  };
  const left = {
    banks: await names("/ext/svc/banks", "banks"),
    "server templates": await names("/ext/svc/admin/templates", "templates"),
    "server sources": await names("/ext/svc/admin/template-sources"),
  };
  expect(left, "left behind by an earlier spec file on this worker's server").toEqual({
    banks: [],
    "server templates": [],
    "server sources": [],
  });
}

// Later specs expect an empty server: remove what this one made.
test.afterAll(async () => {
  if (admin) await cleanUp();
  await Promise.all([admin?.dispose(), market.stop()]);
});

const card = (page: Page, testId: string) => page.getByTestId(testId);

/** Follows a card's link and checks the page it leads to, then returns Home. */
async function follow(page: Page, testId: string, link: string | RegExp, url: RegExp, heading: string | RegExp) {
  await card(page, testId).getByRole("link", { name: link }).click();
  await expect(page).toHaveURL(url);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await consoleNav(page).getByRole("link", { name: "Home", exact: true }).click();
  await expect(pageHeading(page, "Home")).toBeVisible();
}

/** Home on an empty server: the first steps, the next one's button first; each card says what to do first too. */
async function expectFirstSteps(page: Page) {
  await expect(pageHeading(page, "Home")).toBeVisible();
  await expect(consoleNav(page).getByRole("link", { name: "Home", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("home-summary")).toHaveText("Get started: add a source, then install a template, then create a bank.");
  const steps = card(page, "home-first-steps");
  await expect(steps.getByRole("listitem")).toHaveText([/Add a source/, /Install a template/, /Create a bank/]);
  // Only the next step has its button.
  await expect(steps.getByRole("link")).toHaveCount(1);
  await follow(page, "home-first-steps", "Add a source", /\/sources$/, "Template sources");
  await expect(card(page, "home-updates")).toContainText("No templates yet");
  await expect(card(page, "home-behind")).toContainText("No banks yet");
  const sources = card(page, "home-sources");
  await expect(sources).toContainText("No sources yet");
  // The Add source dialog's hint: a folder, a repository or a templates.json.
  await expect(sources).toContainText("a folder that holds templates.json, or the URL of a templates.json itself");
  await follow(page, "home-updates", "Open the Marketplace", /\/marketplace$/, "Marketplace");
  await follow(page, "home-behind", "Create a bank", /\/banks\/new$/, "New bank");
  await follow(page, "home-sources", "Add a source", /\/sources$/, "Template sources");
}

test("signed out, / is the landing page; signing in from it lands on Home, which on an empty server leads through the first steps", async ({
  page,
}) => {
  await page.goto("/");
  await expect(pageHeading(page, "Bank Templates Console")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Account menu for / })).toHaveCount(0);
  await screenshot(page, "landing");
  await page.getByRole("link", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await signIn(page, HANA.id, HANA.password, "/");
  await expectFirstSteps(page);
  await expect(card(page, "home-expiring")).toContainText("No user's API key expires within 7 days.");
  // The audit log holds the writes that made hana and milo.
  const audit = card(page, "home-audit");
  await expect(audit.getByRole("link", { name: `User created: ${MILO.id}` })).toBeVisible();
  await follow(page, "home-audit", "Open the audit log", /\/admin\/audit$/, "Audit log");
  await screenshotBoth(page, "home-empty");
});

test("a member's Home on an empty server leads through the first steps and has no admin cards", async ({ page }) => {
  await signIn(page, MILO.id, MILO.password, "/");
  await expectFirstSteps(page);
  await expect(card(page, "home-expiring")).toHaveCount(0);
  await expect(card(page, "home-audit")).toHaveCount(0);
  // Signed out again, the same address is the landing page.
  await signOut(page);
  await page.goto("/");
  await expect(pageHeading(page, "Bank Templates Console")).toBeVisible();
});

test("setup: updates waiting, banks behind, failing sources and a key expiring tomorrow", async () => {
  const hana = await actingAs(HANA.id);
  const milo = await actingAs(MILO.id);
  market.setCatalog("home", [handbook("first"), guide("first")]);
  market.failCatalog("home-broken");

  // Hana's personal source and template, and a server source and two templates from the same catalog.
  await expectOk(await hana.post("/ext/svc/me/template-sources", { data: { url: market.sourceUrl("home"), alias: "home" } }));
  await expectOk(await hana.post(`/ext/svc/me/templates/${HANDBOOK}/install`, { data: { source_name: "home" } }));
  await expectOk(await hana.post("/ext/svc/admin/template-sources", { data: { url: market.sourceUrl("home"), alias: SERVER_SOURCE } }));
  for (const template of [HANDBOOK, GUIDE]) {
    await expectOk(await hana.post(`/ext/svc/admin/templates/${template}/install`, { data: { source_name: SERVER_SOURCE } }));
  }
  // A newer edition of the handbook, and a check that records it on both its templates.
  market.setCatalog("home", [handbook("second"), guide("first")]);
  await expectOk(await hana.get(`/ext/svc/me/templates/${HANDBOOK}/check-update`));
  await expectOk(await hana.get(`/ext/svc/admin/templates/${HANDBOOK}/check-update`));

  // Sources whose catalog fetch fails (the marketplace answers 500): hana's own and a server one.
  await expectOk(await hana.post("/ext/svc/me/template-sources", { data: { url: market.sourceUrl("home-broken"), alias: "broken" } }));
  await expectOk(
    await hana.post("/ext/svc/admin/template-sources", { data: { url: market.sourceUrl("home-broken"), alias: BROKEN_SERVER_SOURCE } }),
  );
  expect((await hana.get("/ext/svc/me/template-sources/broken/catalog?refresh=true")).ok()).toBe(false);
  expect((await hana.get(`/ext/svc/admin/template-sources/${BROKEN_SERVER_SOURCE}/catalog?refresh=true`)).ok()).toBe(false);

  // A bank of each, made from a template that then gets a second version.
  for (const [user, bank] of [
    [hana, HANA_BANK],
    [milo, MILO_BANK],
  ] as const) {
    await expectOk(await user.post("/ext/svc/me/templates", { data: { id: NOTES, name: "Home notes", manifest: e2eManifest() } }));
    await expectOk(await user.post("/ext/svc/banks", { data: { bank_id: bank, template: NOTES } }));
    await expectOk(
      await user.patch(`/ext/svc/me/templates/${NOTES}`, {
        data: { manifest: e2eManifest({ directives: [{ name: "Be brief", content: "Answer in two sentences." }] }) },
      }),
    );
  }

  // A key of milo's that runs out tomorrow.
  await expectOk(await admin.post(`/ext/svc/admin/users/${MILO.id}/api-keys`, { data: { description: "short", expires_in_days: 1 } }));
  await Promise.all([hana.dispose(), milo.dispose()]);
});

test("the admin's Home lists what waits, each a link to where it is handled", async ({ page }) => {
  await signIn(page, HANA.id, HANA.password, "/");
  await expect(pageHeading(page, "Home")).toBeVisible();
  // Her template and the server's, both banks (admins see every bank), both sources, milo's key:
  // at least these seven (an admin sees the whole server's).
  await expect(page.getByTestId("home-summary")).toHaveText(/^\d+ things need your attention\.$/);
  const count = Number((await page.getByTestId("home-summary").textContent())?.split(" ")[0]);
  expect(count).toBeGreaterThanOrEqual(7);

  await follow(
    page,
    "home-updates",
    `Home handbook (personal/${HANDBOOK})`,
    new RegExp(`/templates/personal/${HANDBOOK}/update$`),
    `Review update of ${HANDBOOK}`,
  );
  await follow(
    page,
    "home-updates",
    `Home handbook (server/${HANDBOOK})`,
    new RegExp(`/templates/server/${HANDBOOK}/update$`),
    `Review update of ${HANDBOOK}`,
  );

  const behind = card(page, "home-behind");
  for (const bank of [HANA_BANK, MILO_BANK]) {
    await expect(behind.getByRole("listitem").filter({ hasText: bank })).toContainText(`personal/${NOTES} has a newer version`);
  }
  await follow(page, "home-behind", HANA_BANK, new RegExp(`/banks/${HANA_BANK}$`), new RegExp(HANA_BANK));

  await follow(page, "home-sources", "broken (personal)", /\/sources$/, "Template sources");
  await follow(page, "home-sources", `${BROKEN_SERVER_SOURCE} (server)`, /\/sources\?scope=server$/, "Template sources");

  await expect(card(page, "home-expiring").getByRole("listitem").filter({ hasText: MILO.id })).toContainText("expires in 1 day");
  await follow(page, "home-expiring", `Milo (${MILO.id})`, new RegExp(`/admin/users\\?q=${MILO.id}$`), "Users");

  // Among the newest entries, milo's key; its link opens the log on that target.
  await card(page, "home-audit")
    .getByRole("link", { name: /^API key created: key_/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/admin\/audit\?target=%2Fext%2Fsvc%2Fadmin%2Fusers%2Fhome-milo%2Fapi-keys%2Fkey_/);
  await expect(pageHeading(page, "Audit log")).toBeVisible();
  await expect(page.getByTestId("audit-table").locator("tbody tr")).toHaveCount(1);
  await consoleNav(page).getByRole("link", { name: "Home", exact: true }).click();
  await expect(pageHeading(page, "Home")).toBeVisible();
  await screenshot(page, "home");
});

test("a member's Home lists their own and the server's, and no admin cards", async ({ page, watch }) => {
  // The failing server source's catalog, on the Marketplace page the card leads to.
  watch.expectError(/catalog.* → 5\d\d|status of 5\d\d/);
  await signIn(page, MILO.id, MILO.password, "/");
  await expect(pageHeading(page, "Home")).toBeVisible();
  // The server's template, his bank, the server's failing source.
  await expect(page.getByTestId("home-summary")).toHaveText("3 things need your attention.");
  await expect(card(page, "home-expiring")).toHaveCount(0);
  await expect(card(page, "home-audit")).toHaveCount(0);

  // A server template: members read it; an administrator updates it.
  const updates = card(page, "home-updates");
  await expect(updates.getByRole("listitem")).toHaveCount(1);
  await expect(updates).toContainText("an administrator updates server templates");
  await follow(page, "home-updates", `Home handbook (server/${HANDBOOK})`, new RegExp(`/templates/server/${HANDBOOK}$`), /Home handbook/);

  const behind = card(page, "home-behind");
  await expect(behind.getByRole("listitem")).toHaveCount(1);
  await follow(page, "home-behind", MILO_BANK, new RegExp(`/banks/${MILO_BANK}$`), new RegExp(MILO_BANK));

  // When the server's templates were last checked, and who checks them.
  await expect(updates.getByTestId("home-update-checks")).toHaveText(
    /^The server's templates from sources were last checked for updates .+; an administrator checks and updates them\.$/,
  );

  // Only the server's failing source (hana's own is hers alone); a member sees its failure on the Marketplace.
  const sources = card(page, "home-sources");
  await expect(sources.getByRole("listitem")).toHaveCount(1);
  await follow(
    page,
    "home-sources",
    `${BROKEN_SERVER_SOURCE} (server)`,
    new RegExp(`/marketplace\\?source=server%3A${BROKEN_SERVER_SOURCE}$`),
    "Marketplace",
  );
});

test("a member with no templates of his own is offered the server's, on Home and on Templates", async ({ page }) => {
  await signIn(page, NOOR.id, NOOR.password, "/");
  // The server's handbook update and its failing source wait; his first bank is the step left.
  await expect(page.getByTestId("home-summary")).toHaveText("2 things need your attention.");
  const steps = card(page, "home-first-steps");
  await expect(steps.getByTestId("first-step-source")).toContainText("Add a source: done");
  await expect(steps.getByTestId("first-step-template")).toContainText("Install a template: done");
  await expect(steps.getByRole("link", { name: "Create a bank" })).toBeVisible();

  // Not "every template is up to date": he has none; the server's two are his to use.
  const updates = card(page, "home-updates");
  await expect(updates).not.toContainText("up to date");
  await expect(updates.getByTestId("home-no-own-templates")).toHaveText(
    /^You have no templates of your own\. The server has 2 templates you can create banks from\./,
  );
  await screenshotBoth(page, "home-member-no-templates");
  await follow(page, "home-updates", "See the server's templates", /\/templates\?scope=server$/, "Templates");

  // The Templates page's own tab is empty: it offers the server's, one click away.
  await consoleNav(page).getByRole("link", { name: "Templates", exact: true }).click();
  await expect(pageHeading(page, "Templates")).toBeVisible();
  await expect(page.getByText("No templates of your own yet")).toBeVisible();
  await expect(page.getByText("The server has 2 templates you can create banks from.")).toBeVisible();
  await screenshotBoth(page, "templates-none-of-your-own");
  await page.getByRole("link", { name: "See the server's templates" }).click();
  await expect(page).toHaveURL(/\/templates\?scope=server$/);
  for (const id of [HANDBOOK, GUIDE]) await expect(page.getByTestId(`template-row-${id}`)).toBeVisible();
});

test("an update of a server template not checked yet: Home says when they were checked; an admin's check shows it to all", async ({
  page,
}) => {
  // The guide's source moves on; nobody has checked since.
  market.setCatalog("home", [handbook("second"), guide("second")]);
  await signIn(page, MILO.id, MILO.password, "/");
  const updates = card(page, "home-updates");
  await expect(updates.getByRole("listitem")).toHaveCount(1);
  await expect(updates.getByTestId("home-update-checks")).toContainText(
    "The server's templates from sources were last checked for updates",
  );
  await signOut(page);

  // Hana checks from Home: her template and the server's, at once.
  await signIn(page, HANA.id, HANA.password, "/");
  await card(page, "home-updates").getByRole("button", { name: "Check for updates now" }).click();
  await expect(page.getByTestId("home-check-outcome")).toHaveText(/^Checked \d+ templates: \d+ updates found\.$/);
  await expect(card(page, "home-updates").getByRole("link", { name: `Home guide (server/${GUIDE})` })).toBeVisible();
  await signOut(page);

  // Milo now sees it too.
  await signIn(page, MILO.id, MILO.password, "/");
  await expect(updates.getByRole("link", { name: `Home guide (server/${GUIDE})` })).toBeVisible();
  await expect(updates.getByRole("listitem")).toHaveCount(2);
  await expect(page.getByTestId("home-summary")).toHaveText("4 things need your attention.");
});
