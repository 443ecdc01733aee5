import { request as apiRequest, type Locator, type Page } from "@playwright/test";
import { createFreshUser, deleteBankIfPresent } from "./support/api";
import { consoleNav, pageHeading, signIn } from "./support/console";
import { E2E_ADMIN_PASSWORD, E2E_ADMIN_TOKEN, E2E_BASE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";
import { manifestValidation, typeManifest } from "./support/template-steps";

// Every form's 422, provoked on purpose through the console, reads as a sentence at the field
// it is about, never in the validation library's words. The forms and the refusals they get:
//   Add source        POST /ext/svc/me/template-sources        url (not http/https), alias (bad characters)
//   New user          POST /ext/svc/admin/users                 id (bad characters), email, password (too short)
//   New bank          POST /ext/svc/banks?dry_run=true          bank_id (bad characters), template (empty)
//   Service account   POST /ext/svc/me/service-accounts         id (bad characters)
//   API key           POST /ext/svc/me/api-keys                 description (over 200 characters)
//   Change password   POST /ext/svc/me/password                 new_password (under 12 characters)
//   Edit user         PATCH /ext/svc/admin/users/{id}           email
//   New template      POST /ext/svc/me/templates                id (bad characters), description (over 5,000 characters)
//   Edit template     PATCH /ext/svc/me/templates/{id}          description (over 5,000 characters)
//   Save as template  POST /ext/svc/me/templates (bank export)  id (bad characters)
// (the policy form's 422s are in banks.spec, the manifest editors' in editor.spec).
// and a marketplace at a loopback address, refused with the setting that would allow it.
test.describe.configure({ mode: "serial" });

const MEL = { id: "mel", password: "mel's long e2e password" };
const MEL_TEMPLATE = "mel-notes";
const MEL_BANK = "mel-bank";
const TOO_LONG_DESCRIPTION = "x".repeat(5001);

/** What zod says when nobody words its messages: none of it may reach a form. */
const LIBRARY_WORDING = /Too small|Too big|\bexpected\b|Invalid input|Invalid option|received/;
const REFUSED = /→ 422|status of 422/;

test.beforeAll(async () => {
  const api = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  // A clean slate: a CI retry runs the whole serial file again on the same data.
  await deleteBankIfPresent(api, MEL_BANK);
  await createFreshUser(api, { id: MEL.id, display_name: "Mel", password: MEL.password });
  // A personal template and a bank of mel's, for the template and bank forms.
  const key = await api.post(`/ext/svc/admin/users/${MEL.id}/api-keys`, { data: { description: "messages e2e setup" } });
  expect(key.status()).toBe(201);
  const mel = { authorization: `Bearer ${(await key.json()).token as string}` };
  const manifest = { version: "1", bank: { retain_mission: "Keep the notes." } };
  const template = await api.post("/ext/svc/me/templates", { headers: mel, data: { id: MEL_TEMPLATE, name: "Mel's notes", manifest } });
  expect(template.status(), await template.text()).toBe(200);
  const bank = await api.post("/ext/svc/banks", { headers: mel, data: { bank_id: MEL_BANK, template: MEL_TEMPLATE } });
  expect(bank.status(), await bank.text()).toBe(200);
  await api.dispose();
});

/** The field's accessible description carries the sentence, and the field is marked invalid. */
async function expectAtField(field: Locator, message: RegExp) {
  await expect(field).toHaveAccessibleDescription(message);
  // Mantine's PasswordInput marks its inner input with data-invalid only; the others set aria-invalid too.
  expect(await field.evaluate((input) => input.getAttribute("aria-invalid") ?? input.getAttribute("data-invalid"))).toBe("true");
}

async function expectNoLibraryWording(scope: Locator) {
  await expect(scope).toBeVisible();
  await expect(scope).not.toContainText(LIBRARY_WORDING);
}

async function openSourcesDialog(page: Page) {
  await consoleNav(page).getByRole("link", { name: "Sources", exact: true }).click();
  await expect(pageHeading(page, "Template sources")).toBeVisible();
  await page.getByRole("button", { name: "Add source" }).click();
  return page.getByRole("dialog", { name: "Add a personal source", exact: true });
}

test("add source: a URL that is not http(s) and a bad alias are refused at their fields", async ({ page, watch }) => {
  watch.expectError(REFUSED);
  await signIn(page, MEL.id, MEL.password);
  const dialog = await openSourcesDialog(page);
  await dialog.getByLabel(/^URL/).fill("ftp://example.com/templates.json");
  await dialog.getByRole("button", { name: "Add source" }).click();
  await expectAtField(dialog.getByLabel(/^URL/), /must be an absolute http or https URL/);
  await expectNoLibraryWording(dialog);

  await dialog.getByLabel(/^URL/).fill("https://example.com/templates.json");
  await dialog.getByLabel("Alias", { exact: true }).fill("Not An Alias!");
  await dialog.getByRole("button", { name: "Add source" }).click();
  await expectAtField(dialog.getByLabel("Alias", { exact: true }), /must be 1-64 characters of A-Z/);
  await expectNoLibraryWording(dialog);
});

test("a marketplace at a loopback address is refused, naming MARKETPLACE_ALLOWED_HOSTS", async ({ page, watch }) => {
  watch.expectError(/catalog.* → 502|status of 502/);
  await signIn(page, MEL.id, MEL.password);
  const dialog = await openSourcesDialog(page);
  // The e2e server allows 127.0.0.1 (its local marketplaces); "localhost" is not on the list.
  await dialog.getByLabel(/^URL/).fill("http://localhost:9/templates.json");
  await dialog.getByLabel("Alias", { exact: true }).fill("loopy");
  await dialog.getByRole("button", { name: "Add source" }).click();
  await expect(dialog).toBeHidden();
  await consoleNav(page).getByRole("link", { name: "Marketplace", exact: true }).click();
  const failure = page.getByTestId("catalog-failure").filter({ hasText: "loopy" }).first();
  await expect(failure).toContainText("loopback address");
  await expect(failure).toContainText("MARKETPLACE_ALLOWED_HOSTS");
  await expectNoLibraryWording(failure);
});

test("new user: a bad user name, a bad email and a short password are refused at their fields", async ({ page, watch }) => {
  watch.expectError(REFUSED);
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await consoleNav(page).getByRole("link", { name: "Users", exact: true }).click();
  await page.getByRole("button", { name: "New user" }).click();
  const dialog = page.getByRole("dialog", { name: "New user", exact: true });
  await dialog.getByLabel("User name").fill("Not A Name");
  await dialog.getByLabel("Email").fill("not-an-email");
  await dialog.getByRole("textbox", { name: "Password", exact: true }).fill("short");
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expectAtField(dialog.getByLabel("User name"), /must be 1-64 characters of a-z/);
  await expectAtField(dialog.getByLabel("Email"), /must be an email address/);
  await expectAtField(dialog.getByRole("textbox", { name: "Password", exact: true }), /must be at least 8 characters/);
  await expectNoLibraryWording(dialog);
});

test("new bank: a bad bank id and no template are refused at their fields", async ({ page, watch }) => {
  watch.expectError(REFUSED);
  await signIn(page, MEL.id, MEL.password);
  await page.goto("/banks/new");
  const form = page.getByRole("form", { name: "New bank" });
  await form.getByLabel("Bank id").fill("not a bank id!");
  await form.getByRole("button", { name: "Preview" }).click();
  await expectAtField(form.getByLabel("Bank id"), /must be 1-128 characters of A-Z/);
  await expectAtField(form.getByLabel(/^Template/), /must not be empty/);
  await expectNoLibraryWording(form);
});

test("account: a bad service account id and a too long API key description are refused at their fields", async ({ page, watch }) => {
  watch.expectError(REFUSED);
  await signIn(page, MEL.id, MEL.password);
  await consoleNav(page).getByRole("link", { name: "Account", exact: true }).click();
  await expect(pageHeading(page, "Account")).toBeVisible();

  await page.getByRole("button", { name: "New service account" }).click();
  const sa = page.getByRole("dialog", { name: "New service account", exact: true });
  await sa.getByLabel("ID").fill("Bad Id!");
  await sa.getByRole("button", { name: "Create service account" }).click();
  await expectAtField(sa.getByLabel("ID"), /must be 1-64 characters of a-z/);
  await expectNoLibraryWording(sa);
  await sa.getByRole("button", { name: "Cancel" }).click();
  // What was typed would be lost: Cancel asks first.
  await page.getByRole("dialog", { name: "Discard changes?" }).getByRole("button", { name: "Discard" }).click();
  await expect(sa).toBeHidden();

  await page.getByRole("button", { name: "Create API key" }).first().click();
  const key = page.getByRole("dialog", { name: "New API key for you", exact: true });
  const description = key.getByLabel("Description");
  // The input stops typing at 200 characters; a script (or an older page) may send more.
  await description.evaluate((input) => input.removeAttribute("maxlength"));
  await description.fill("x".repeat(201));
  await key.getByRole("button", { name: "Create key" }).click();
  await expectAtField(description, /must be at most 200 characters/);
  await expectNoLibraryWording(key);
});

test("change password: a new password under 12 characters is refused at its field", async ({ page, watch }) => {
  watch.expectError(REFUSED);
  await signIn(page, MEL.id, MEL.password);
  await consoleNav(page).getByRole("link", { name: "Account", exact: true }).click();
  await page.getByRole("button", { name: "Change password" }).click();
  const dialog = page.getByRole("dialog", { name: "Change your password", exact: true });
  await dialog.getByRole("textbox", { name: "Current password", exact: true }).fill(MEL.password);
  await dialog.getByRole("textbox", { name: "New password", exact: true }).fill("too short");
  await dialog.getByRole("textbox", { name: "Repeat the new password", exact: true }).fill("too short");
  await dialog.getByRole("button", { name: "Save new password" }).click();
  await expectAtField(dialog.getByRole("textbox", { name: "New password", exact: true }), /must be at least 12 characters/);
  await expectNoLibraryWording(dialog);
});

test("edit user: an email that is not one is refused at its field", async ({ page, watch }) => {
  watch.expectError(REFUSED);
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await consoleNav(page).getByRole("link", { name: "Users", exact: true }).click();
  await page.getByRole("button", { name: `Edit user ${MEL.id}` }).click();
  const dialog = page.getByRole("dialog", { name: `Edit user ${MEL.id}`, exact: true });
  await dialog.getByLabel("Email").fill("mel at example");
  await dialog.getByRole("button", { name: /^Save/ }).click();
  await expectAtField(dialog.getByLabel("Email"), /must be an email address/);
  await expectNoLibraryWording(dialog);
});

test("new template: a bad id and a too long description are refused at their fields", async ({ page, watch }) => {
  watch.expectError(REFUSED);
  await signIn(page, MEL.id, MEL.password);
  await page.goto("/templates/new");
  const form = page.getByRole("form", { name: "New template" });
  await form.getByLabel("ID").fill("not an id!");
  await form.getByLabel("Name").fill("Refused");
  await form.getByLabel("Description").fill(TOO_LONG_DESCRIPTION);
  await typeManifest(page, { version: "1", bank: { retain_mission: "Keep it." } });
  await expect(manifestValidation(page)).toContainText("Valid bank-template manifest");
  await form.getByRole("button", { name: "Create template" }).click();
  await expectAtField(form.getByLabel("ID"), /must be 1-128 characters of A-Z/);
  await expectAtField(form.getByLabel("Description"), /must be at most 5000 characters/);
  await expectNoLibraryWording(form);
});

test("edit template: a too long description is refused at its field", async ({ page, watch }) => {
  watch.expectError(REFUSED);
  await signIn(page, MEL.id, MEL.password);
  await page.goto(`/templates/personal/${MEL_TEMPLATE}`);
  const form = page.getByRole("form", { name: `Edit template ${MEL_TEMPLATE}` });
  await form.getByLabel("Description").fill(TOO_LONG_DESCRIPTION);
  await form.getByRole("button", { name: "Save changes" }).click();
  await expectAtField(form.getByLabel("Description"), /must be at most 5000 characters/);
  await expectNoLibraryWording(form);
});

test("save a bank as a template: a bad template id is refused at its field", async ({ page, watch }) => {
  watch.expectError(REFUSED);
  await signIn(page, MEL.id, MEL.password);
  await page.goto(`/banks/${MEL_BANK}`);
  await page.getByRole("button", { name: "Save as template" }).click();
  const dialog = page.getByRole("dialog", { name: `Save ${MEL_BANK} as a template`, exact: true });
  await dialog.getByLabel("Template id").fill("not an id!");
  await dialog.getByRole("button", { name: "Save as template" }).click();
  await expectAtField(dialog.getByLabel("Template id"), /must be 1-128 characters of A-Z/);
  await expectNoLibraryWording(dialog);
});
