import { deferred } from "../tests/support/deferred";
import { deleteIfPresent } from "./support/api";
import { consoleNav, pageHeading, signIn, signOut } from "./support/console";
import { E2E_ADMIN_PASSWORD } from "./support/env";
import { DESKTOP, expect, MOBILE, screenshot, screenshotBoth, test } from "./support/fixtures";

// The console as people use it: an admin makes member cora, cora signs in and works
// with sources and API keys, and what a member must not see stays out of reach.
// Each test starts signed out in a fresh browser context; they run in order.
test.describe.configure({ mode: "serial" });

const CORA_PASSWORD = "cora's long password";

// A clean slate: a CI retry runs the whole serial file again on the same data. The tests make
// cora (with her sources, keys and service account) and the server source "shared" in the console.
test.beforeAll(async ({ request }) => {
  await deleteIfPresent(request, "/ext/svc/admin/users/cora");
  await deleteIfPresent(request, "/ext/svc/admin/template-sources/shared");
});

test("a signed-out visitor is sent to sign-in, and after signing in to where they were going", async ({ page, watch }) => {
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fadmin%2Fusers$/);
  await expect(pageHeading(page, "Sign in")).toBeVisible();
  await screenshotBoth(page, "signin");

  watch.expectError(/callback\/credentials → 401|status of 401/);
  await page.getByLabel("User name").fill("admin");
  await page.getByRole("textbox", { name: "Password", exact: true }).fill("not the password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("signin-error")).toContainText("The user name or password is wrong");
  await screenshot(page, "signin-error");

  await signIn(page, "admin", E2E_ADMIN_PASSWORD, "/admin/users");
  await expect(pageHeading(page, "Users")).toBeVisible();
});

test("a sign-in typed before the page's code runs is kept, and sent once it runs, never posted to the page", async ({ page }) => {
  // A page of this context that is not the fixture's: its goto would wait for the code held back here.
  const early = await page.context().newPage();
  const scripts = deferred();
  // Its scripts, not its stylesheets, which the page waits for before it shows anything.
  await early.route("**/_next/static/chunks/*.js", async (route) => {
    await scripts.promise;
    await route.continue();
  });
  const pagePosts: string[] = [];
  early.on("request", (request) => {
    if (request.method() === "POST" && request.isNavigationRequest()) pagePosts.push(request.url());
  });
  await early.goto("/signin", { waitUntil: "commit" });
  const submit = early.getByRole("button", { name: "Sign in", exact: true });
  await expect(submit).toBeDisabled();
  await early.getByLabel("User name").fill("admin");
  const password = early.getByRole("textbox", { name: "Password", exact: true });
  await password.fill(E2E_ADMIN_PASSWORD);
  await password.press("Enter");

  scripts.resolve();
  await expect(submit).toBeEnabled();
  await expect(early.getByLabel("User name")).toHaveValue("admin");
  await expect(password).toHaveValue(E2E_ADMIN_PASSWORD);
  await submit.click();
  await expect(early.getByRole("button", { name: /^Account menu for / })).toBeVisible();
  await expect(early).toHaveURL(/\/$/);
  expect(pagePosts).toEqual([]);
  await early.close();
});

test("the admin creates member cora with a password and edits her", async ({ page, watch }) => {
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await consoleNav(page).getByRole("link", { name: "Users", exact: true }).click();
  await expect(pageHeading(page, "Users")).toBeVisible();
  const table = page.getByTestId("users-table");
  await expect(table.getByRole("rowheader", { name: /admin/ })).toBeVisible();

  await page.getByRole("button", { name: "New user" }).click();
  const dialog = page.getByRole("dialog", { name: "New user", exact: true });
  await dialog.getByLabel("User name").fill("cora");
  await dialog.getByLabel("Display name").fill("Cora");
  await dialog.getByLabel("Email").fill("cora@example.org");
  await dialog.getByRole("textbox", { name: "Password", exact: true }).fill(CORA_PASSWORD);
  await screenshot(page, "admin-users-new");
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog).toBeHidden();
  const coraRow = table.getByRole("row").filter({ hasText: "cora@example.org" });
  await expect(coraRow).toContainText("member");
  await expect(coraRow).toContainText("active");
  await expect(coraRow).toContainText("password");

  // A second cora is refused at the user name field.
  watch.expectError(/admin\/users → 409|status of 409/);
  await page.getByRole("button", { name: "New user" }).click();
  await dialog.getByLabel("User name").fill("cora");
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog.getByLabel("User name")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText("is taken by another user")).toBeVisible();
  // What was typed would be lost: Cancel asks first.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("dialog", { name: "Discard changes?" }).getByRole("button", { name: "Discard" }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: "Edit user cora" }).click();
  const edit = page.getByRole("dialog", { name: "Edit user cora", exact: true });
  await edit.getByLabel("Display name").fill("Cora Jones");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toBeHidden();
  await expect(coraRow).toContainText("Cora Jones");

  // Her keys open under her row, in the page: no dialog.
  const keysButton = page.getByRole("button", { name: "API keys of user cora" });
  await keysButton.click();
  await expect(keysButton).toHaveAttribute("aria-expanded", "true");
  const keys = page.getByTestId("api-keys-row");
  await expect(keys.getByRole("heading", { name: "API keys of user cora" })).toBeVisible();
  await expect(keys.getByText("No API keys")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await screenshotBoth(page, "admin-users");
  await keysButton.click();
  await expect(keys).toHaveCount(0);
});

test("the admin sees every console page, the admin navigation and both source scopes", async ({ page, watch }) => {
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  const nav = consoleNav(page);
  for (const link of [
    "Home",
    "Sources",
    "Marketplace",
    "Templates",
    "Banks",
    "Webhooks",
    "Account",
    "Users",
    "Server sources",
    "Server webhooks",
    "API reference",
  ]) {
    await expect(nav.getByRole("link", { name: link, exact: true })).toBeVisible();
  }
  // Signing in lands on Home (e2e/home.spec.ts); the sources are a link away.
  await expect(pageHeading(page, "Home")).toBeVisible();
  await nav.getByRole("link", { name: "Sources", exact: true }).click();
  await expect(pageHeading(page, "Template sources")).toBeVisible();
  await expect(page.getByRole("tab", { name: "Server" })).toBeVisible();
  await expect(page.getByText("No personal sources yet")).toBeVisible();
  await screenshot(page, "sources-empty");

  await page.getByRole("tab", { name: "Server" }).click();
  // A source added is fetched once; github.com cannot be reached from the test machine.
  watch.expectError(/catalog\S* → 502|status of 502/);
  await page.getByRole("button", { name: "Add source" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a server source", exact: true });
  await dialog.getByLabel("URL").fill("https://github.com/shared/bank-templates");
  await dialog.getByLabel("Description").fill("Templates every team starts from.");
  await dialog.getByRole("button", { name: "Add source" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("sources-table").getByRole("rowheader", { name: "shared" })).toBeVisible();
  // The optional description is kept and shown with the source (CONTRACT §15).
  await expect(page.getByTestId("source-description")).toHaveText("Templates every team starts from.");

  await nav.getByRole("link", { name: "Server sources", exact: true }).click();
  await expect(pageHeading(page, "Server sources")).toBeVisible();
  await expect(page.getByTestId("sources-table")).toContainText("https://github.com/shared/bank-templates");
  await screenshot(page, "admin-sources");

  await nav.getByRole("link", { name: "Account", exact: true }).click();
  await expect(pageHeading(page, "Account")).toBeVisible();
  await expect(page.getByTestId("profile")).toContainText("admin");
  // The bootstrap key is the admin's, listed by its prefix only.
  await expect(page.getByTestId("api-keys-table")).toContainText("BOOTSTRAP_ADMIN_TOKEN");
  await screenshot(page, "account-admin");

  await nav.getByRole("link", { name: "API reference", exact: true }).click();
  await expect(pageHeading(page, "API reference")).toBeVisible();
  const reference = page.getByTestId("api-reference");
  // Swagger UI renders the whole document in the browser: slow on a busy runner (see a11y.spec).
  await expect(reference.getByText("Bank template and bank policy extension API")).toBeVisible({ timeout: 60_000 });
  await expect(reference.getByText("/ext/svc/me/template-sources", { exact: true }).first()).toBeVisible();
  await screenshot(page, "api-reference");

  // Marketplace and Templates offer admins the server scope (their member views: templates.spec.ts).
  // The server source "shared" points at github.com, which the test machine cannot reach: its tab says so.
  watch.expectError(/shared\/catalog\S* → 502|status of 502/);
  for (const link of ["Marketplace", "Templates"] as const) {
    await nav.getByRole("link", { name: link, exact: true }).click();
    await expect(pageHeading(page, link)).toBeVisible();
    await expect(page.getByRole("radio", { name: "Server" })).toHaveCount(1);
  }
  await expect(page.getByText(/^No templates (of your own )?yet$/)).toBeVisible();
  await screenshot(page, "templates-admin");
  await nav.getByRole("link", { name: "Banks", exact: true }).click();
  await expect(pageHeading(page, "Banks")).toBeVisible();
  await screenshot(page, "banks");

  // The dark theme, remembered across pages.
  await nav.getByRole("link", { name: "Sources", exact: true }).click();
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  await expect(page.getByRole("button", { name: "Switch to light theme" })).toBeVisible();
  await screenshot(page, "sources-dark");
  await page.getByRole("button", { name: "Switch to light theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");

  // The unreachable server source goes again: members would otherwise see it in their Marketplace.
  await page.getByRole("tab", { name: "Server" }).click();
  await page.getByRole("button", { name: "Remove source shared" }).click();
  const confirm = page.getByRole("dialog", { name: "Remove source?", exact: true });
  await expect(confirm).toContainText("shared");
  await confirm.getByRole("button", { name: "Remove source" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId("sources-table").getByRole("rowheader", { name: "shared" })).toHaveCount(0);

  await signOut(page);
});

test("member cora adds and removes sources, with conflicts shown at their fields", async ({ page, watch }) => {
  await signIn(page, "cora", CORA_PASSWORD);
  const nav = consoleNav(page);
  await expect(nav.getByRole("link", { name: "Sources", exact: true })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Users", exact: true })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Server sources", exact: true })).toHaveCount(0);
  await expect(nav.getByText("Admin")).toHaveCount(0);
  await nav.getByRole("link", { name: "Sources", exact: true }).click();
  await expect(pageHeading(page, "Template sources")).toBeVisible();
  await expect(page.getByRole("tab", { name: "Server" })).toHaveCount(0);
  await expect(page.getByText("No personal sources yet")).toBeVisible();

  const addSource = async (url: string, alias = "") => {
    await page.getByRole("button", { name: "Add source" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a personal source", exact: true });
    await dialog.getByLabel("URL").fill(url);
    await dialog.getByLabel("Alias").fill(alias);
    await dialog.getByRole("button", { name: "Add source" }).click();
    return dialog;
  };

  const first = await addSource("https://github.com/acme/bank-templates");
  await expect(first).toBeHidden();
  const table = page.getByTestId("sources-table");
  await expect(table.getByRole("rowheader", { name: "acme" })).toBeVisible();
  await expect(table).toContainText("https://github.com/acme/bank-templates");

  // Each source added is fetched once; github.com and example.com cannot be reached from the test machine.
  watch.expectError(/catalog\S* → 502|status of 502/);
  watch.expectError(/template-sources → 409|status of 409/);
  watch.expectError(/template-sources → 422|status of 422/);
  const duplicate = await addSource("https://gitlab.com/acme/other-templates");
  await expect(duplicate.getByLabel("URL")).toHaveAttribute("aria-invalid", "true");
  await expect(duplicate.getByText("A personal source named “acme” already exists; give this one another name under Alias.")).toBeVisible();
  await screenshot(page, "sources-conflict");

  // The same conflict through an alias is shown at the alias.
  await duplicate.getByLabel("Alias").fill("acme");
  await duplicate.getByRole("button", { name: "Add source" }).click();
  await expect(duplicate.getByLabel("Alias")).toHaveAttribute("aria-invalid", "true");
  await expect(duplicate.getByText("A personal source named “acme” already exists; choose another name.")).toBeVisible();
  await expect(duplicate.getByLabel("URL")).not.toHaveAttribute("aria-invalid", "true");

  // A URL without a path segment gives no name: 422 at the URL.
  await duplicate.getByLabel("URL").fill("https://example.com/");
  await duplicate.getByLabel("Alias").fill("");
  await duplicate.getByRole("button", { name: "Add source" }).click();
  await expect(duplicate.getByText("has no path segment to derive a source name from; give an alias")).toBeVisible();

  // With an alias it is fine.
  await duplicate.getByLabel("Alias").fill("example");
  await duplicate.getByRole("button", { name: "Add source" }).click();
  await expect(duplicate).toBeHidden();
  await expect(table.getByRole("rowheader", { name: "example" })).toBeVisible();
  await screenshotBoth(page, "sources");

  await page.getByRole("button", { name: "Remove source example" }).click();
  const confirm = page.getByRole("dialog", { name: "Remove source?", exact: true });
  await expect(confirm).toContainText("example");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(table.getByRole("rowheader", { name: "example" })).toBeVisible();
  await page.getByRole("button", { name: "Remove source example" }).click();
  await confirm.getByRole("button", { name: "Remove source" }).click();
  await expect(confirm).toBeHidden();
  await expect(table.getByRole("rowheader", { name: "example" })).toHaveCount(0);
  await expect(table.getByRole("rowheader", { name: "acme" })).toBeVisible();
});

test("cora creates an API key, sees its token once, and it works", async ({ page, request }) => {
  await signIn(page, "cora", CORA_PASSWORD);
  await consoleNav(page).getByRole("link", { name: "Account", exact: true }).click();
  await expect(pageHeading(page, "Account")).toBeVisible();
  await expect(page.getByTestId("profile")).toContainText("Cora Jones");
  await expect(page.getByText("No API keys")).toBeVisible();

  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "New API key for you", exact: true });
  await dialog.getByLabel("Description").fill("laptop");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const shown = dialog.getByTestId("new-token");
  await expect(shown).toContainText("This is the only time the key is shown");
  const token = (await shown.getByLabel("New API key").innerText()).trim();
  expect(token).toMatch(/^hbk_[A-Za-z0-9_-]{40,}$/);
  await expect(shown.getByRole("button", { name: "Copy key" })).toBeVisible();
  await screenshot(page, "account-new-key");

  // The token is a working key for cora.
  const me = await request.get("/ext/svc/me", { headers: { authorization: `Bearer ${token}` } });
  expect(await me.json()).toMatchObject({ user_id: "cora", role: "member" });

  // Done waits until the key was copied or the user says they stored it.
  await expect(dialog.getByRole("button", { name: "Done" })).toBeDisabled();
  await dialog.getByLabel("I have copied the key and stored it safely").check();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  const keys = page.getByTestId("api-keys-table");
  await expect(keys).toContainText("laptop");
  await expect(keys).toContainText(token.slice(0, 12));
  await expect(page.getByText(token)).toHaveCount(0);

  // A service account with a key of its own.
  await page.getByRole("button", { name: "New service account" }).click();
  const sa = page.getByRole("dialog", { name: "New service account", exact: true });
  await sa.getByLabel("ID").fill("ci-bot");
  await sa.getByLabel("Display name").fill("CI pipeline");
  await expect(sa.getByLabel("Role")).toHaveCount(0); // members cannot make admin accounts
  await sa.getByRole("button", { name: "Create service account" }).click();
  await expect(sa).toBeHidden();
  await expect(page.getByTestId("service-accounts-table")).toContainText("CI pipeline");
  // Its keys open under its row, in the page: the new key's dialog is the only one open.
  await page.getByRole("button", { name: "API keys of ci-bot" }).click();
  const saKeys = page.getByTestId("api-keys-row");
  await saKeys.getByRole("button", { name: "Create API key" }).click();
  const saKeyDialog = page.getByRole("dialog", { name: "New API key for service account ci-bot", exact: true });
  await expect(page.getByRole("dialog")).toHaveCount(1);
  await saKeyDialog.getByRole("button", { name: "Create key" }).click();
  const saToken = (await saKeyDialog.getByLabel("New API key").innerText()).trim();
  const bot = await request.get("/ext/svc/me", { headers: { authorization: `Bearer ${saToken}` } });
  expect(await bot.json()).toMatchObject({ user_id: "cora", principal_type: "service_account", principal_id: "ci-bot" });
  await saKeyDialog.getByLabel("I have copied the key and stored it safely").check();
  await saKeyDialog.getByRole("button", { name: "Done" }).click();
  await expect(saKeys.getByTestId("api-keys-table")).toBeVisible();
  // The revoke question is a dialog of its own too; Escape closes it and the keys stay shown.
  await saKeys.getByRole("button", { name: `Revoke key ${saToken.slice(0, 12)}` }).click();
  const revokeQuestion = page.getByRole("dialog", { name: "Revoke API key?", exact: true });
  await expect(revokeQuestion).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(revokeQuestion).toBeHidden();
  await expect(saKeys.getByTestId("api-keys-table")).toBeVisible();
  await screenshotBoth(page, "account");

  // Revoking the laptop key stops it at once.
  await page.getByRole("button", { name: `Revoke key ${token.slice(0, 12)}` }).click();
  await page.getByRole("dialog", { name: "Revoke API key?", exact: true }).getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText("No API keys")).toBeVisible();
  expect((await request.get("/ext/svc/me", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
});

test("a member opening an admin URL gets the 403 page", async ({ page }) => {
  await signIn(page, "cora", CORA_PASSWORD);
  for (const url of ["/admin/users", "/admin/sources"]) {
    await page.goto(url);
    await expect(pageHeading(page, "Administrators only")).toBeVisible();
    await expect(page.getByTestId("forbidden")).toContainText("signed in as cora");
    await expect(page.getByTestId("users-table")).toHaveCount(0);
  }
  await screenshotBoth(page, "forbidden");
});

test("on a phone the navigation sits behind the burger and works by keyboard", async ({ page }) => {
  await page.setViewportSize(MOBILE);
  await signIn(page, "cora", CORA_PASSWORD);
  const burger = page.getByRole("button", { name: "Open navigation" });
  await expect(burger).toBeVisible();
  await expect(consoleNav(page).getByRole("link", { name: "Account", exact: true })).not.toBeInViewport();
  await burger.click();
  await expect(page.getByRole("button", { name: "Close navigation" })).toHaveAttribute("aria-expanded", "true");
  await expect(consoleNav(page).getByRole("link", { name: "Account", exact: true })).toBeInViewport();
  await screenshot(page, "navigation-open");
  await consoleNav(page).getByRole("link", { name: "Account", exact: true }).click();
  await expect(pageHeading(page, "Account")).toBeVisible();
  await expect(page.getByRole("button", { name: "Open navigation" })).toHaveAttribute("aria-expanded", "false");

  // Keyboard: the first Tab reaches the skip link, which moves focus to the page.
  await page.setViewportSize(DESKTOP);
  await page.goto("/sources");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content", exact: true });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("#main-content")).toBeFocused();
});

test("signing out ends the session; console pages then send to sign-in", async ({ page, request }) => {
  await signIn(page, "cora", CORA_PASSWORD);
  await signOut(page);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Faccount$/);
  await expect(pageHeading(page, "Sign in")).toBeVisible();
  // The API no longer knows this browser either.
  expect((await page.request.get("/ext/svc/me", { headers: { "sec-fetch-site": "same-origin" } })).status()).toBe(401);
  expect((await request.get("/ext/svc/me")).status()).toBe(401);
});
