import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Dialog, Page } from "@playwright/test";
import { ADMIN_HEADERS, apiCall, deleteIfPresent } from "./support/api";
import { consoleNav, pageHeading, signIn } from "./support/console";
import { E2E_ADMIN_PASSWORD } from "./support/env";
import { expect, test } from "./support/fixtures";
import { e2eManifest } from "./support/marketplace";
import { ServerProcess } from "./support/server-process";

// The console forgives: edits are not lost to a stray click, Back or reload, a key shown once
// is not lost to a stray Escape, and a server that went away is waited for instead of the
// browser's error page taking the console's place.

const discardDialog = (page: Page) => page.getByRole("dialog", { name: "Discard changes?" });
/**
 * The question answers Escape once it has the focus (on Keep editing), which it takes a moment
 * after it shows; an Escape before that goes to what is under it, which asks the same question
 * again and changes nothing. A person presses Escape on the question they see focused.
 */
const questionHasFocus = (page: Page) => expect(discardDialog(page).getByRole("button", { name: "Keep editing" })).toBeFocused();

/** The next browser dialog (beforeunload, confirm), once it opens. */
const nextBrowserDialog = (page: Page) => new Promise<Dialog>((resolve) => page.once("dialog", resolve));

test("leaving the new-bank form with edits asks first; a clean form leaves at once", async ({ page }) => {
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  const nav = consoleNav(page);

  // Clean: nothing to lose, nothing asked.
  await page.goto("/banks/new");
  const form = page.getByRole("form", { name: "New bank" });
  await expect(form.getByRole("textbox", { name: "Bank id" })).toBeEnabled();
  await nav.getByRole("link", { name: "Templates", exact: true }).click();
  await expect(pageHeading(page, "Templates")).toBeVisible();
  await expect(discardDialog(page)).toHaveCount(0);

  // With an edit, a link asks: Keep editing stays with the edit, Discard leaves.
  await nav.getByRole("link", { name: "Banks", exact: true }).click();
  await page.getByRole("link", { name: "New bank", exact: true }).click();
  const bankId = form.getByRole("textbox", { name: "Bank id" });
  await expect(bankId).toBeEnabled();
  await bankId.click();
  await bankId.fill("forgiving-bank");
  await nav.getByRole("link", { name: "Sources", exact: true }).click();
  await expect(discardDialog(page)).toBeVisible();
  await expect(discardDialog(page)).toContainText("Your changes have not been saved");
  await discardDialog(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(discardDialog(page)).toBeHidden();
  await expect(page).toHaveURL(/\/banks\/new$/);
  await expect(bankId).toHaveValue("forgiving-bank");

  // The breadcrumb (Mantine's Anchor as a Link) asks too; Escape is Keep editing.
  await page.getByRole("main").getByRole("link", { name: "Banks", exact: true }).click();
  await expect(discardDialog(page)).toBeVisible();
  await questionHasFocus(page);
  await page.keyboard.press("Escape");
  await expect(discardDialog(page)).toBeHidden();
  await expect(bankId).toHaveValue("forgiving-bank");

  // Back asks as well, and stays on the form's page until discarding is agreed.
  await page.evaluate(() => window.history.back());
  await expect(discardDialog(page)).toBeVisible();
  await discardDialog(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(page).toHaveURL(/\/banks\/new$/);
  await expect(bankId).toHaveValue("forgiving-bank");

  // Reload: the browser's own beforeunload prompt; dismissed, the page and the edit stay.
  const prompt = nextBrowserDialog(page);
  // Playwright's reload waits for a load that the dismissed prompt cancelled: it times out.
  const reload = page.reload({ timeout: 3_000 }).catch(() => "cancelled");
  const beforeUnload = await prompt;
  expect(beforeUnload.type()).toBe("beforeunload");
  await beforeUnload.dismiss();
  expect(await reload).toBe("cancelled");
  await expect(bankId).toHaveValue("forgiving-bank");

  // Discard leaves.
  await nav.getByRole("link", { name: "Sources", exact: true }).click();
  await discardDialog(page).getByRole("button", { name: "Discard" }).click();
  await expect(pageHeading(page, "Template sources")).toBeVisible();
  await expect(page).toHaveURL(/\/sources$/);

  // Back to the form, edited again: Back with Discard goes back.
  await nav.getByRole("link", { name: "Banks", exact: true }).click();
  await page.getByRole("link", { name: "New bank", exact: true }).click();
  await expect(bankId).toBeEnabled();
  await bankId.click();
  await bankId.fill("second-try");
  await page.evaluate(() => window.history.back());
  await discardDialog(page).getByRole("button", { name: "Discard" }).click();
  await expect(pageHeading(page, "Banks")).toBeVisible();
  await expect(page).toHaveURL(/\/banks$/);
});

test("leaving an edited template page asks before discarding the edit", async ({ page, request }) => {
  const id = "forgiving-template";
  // A clean slate: a retry runs the test again on the same data.
  await deleteIfPresent(request, `/ext/svc/admin/templates/${id}`);
  await apiCall(request, "POST", "/ext/svc/admin/templates", ADMIN_HEADERS, { id, name: "Forgiving", manifest: e2eManifest() });
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await page.goto(`/templates/server/${id}`);
  const name = page.getByRole("form", { name: `Edit template ${id}` }).getByRole("textbox", { name: "Name" });
  await expect(name).toHaveValue("Forgiving");
  await name.fill("Forgiving, edited");

  const nav = consoleNav(page);
  await nav.getByRole("link", { name: "Sources", exact: true }).click();
  await expect(discardDialog(page)).toBeVisible();
  await discardDialog(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(page).toHaveURL(new RegExp(`/templates/server/${id}$`));
  await expect(name).toHaveValue("Forgiving, edited");

  await nav.getByRole("link", { name: "Sources", exact: true }).click();
  await discardDialog(page).getByRole("button", { name: "Discard" }).click();
  await expect(pageHeading(page, "Sources")).toBeVisible();
  expect((await (await request.get(`/ext/svc/admin/templates/${id}`, { headers: ADMIN_HEADERS })).json()).name).toBe("Forgiving");
  await request.delete(`/ext/svc/admin/templates/${id}`, { headers: ADMIN_HEADERS });
});

const FORGIVING_SOURCE = "/ext/svc/me/template-sources/forgiving";

test("a dialog with typed edits asks before closing; saved, it closes and nothing asks", async ({ page, request, watch }) => {
  // The source added is fetched once; github.com cannot be reached from the test machine.
  watch.expectError(/catalog\S* → 502|status of 502/);
  // A clean slate: a retry runs the test again on the same data.
  await deleteIfPresent(request, FORGIVING_SOURCE);
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await consoleNav(page).getByRole("link", { name: "Sources", exact: true }).click();
  await expect(pageHeading(page, "Template sources")).toBeVisible();
  await page.getByRole("button", { name: "Add source" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a personal source" });
  const url = dialog.getByLabel("URL");
  await url.fill("https://github.com/forgiving/bank-templates");

  // Escape, a click outside and Cancel each ask; Keep editing keeps the dialog and the edit.
  await page.keyboard.press("Escape");
  await expect(discardDialog(page)).toBeVisible();
  await discardDialog(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(discardDialog(page)).toBeHidden();
  await expect(url).toHaveValue("https://github.com/forgiving/bank-templates");

  await page.mouse.click(8, 400); // the overlay, beside the dialog
  await expect(discardDialog(page)).toBeVisible();
  await questionHasFocus(page);
  await page.keyboard.press("Escape"); // Escape in the question keeps editing, and closes only the question
  await expect(discardDialog(page)).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(url).toHaveValue("https://github.com/forgiving/bank-templates");

  await dialog.getByRole("button", { name: "Cancel" }).click();
  await discardDialog(page).getByRole("button", { name: "Discard" }).click();
  await expect(dialog).toBeHidden();

  // Reopened, it starts empty; untouched, Escape closes it without a question.
  await page.getByRole("button", { name: "Add source" }).click();
  await expect(url).toHaveValue("");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(discardDialog(page)).toHaveCount(0);

  // Saved: the dialog closes, and leaving the page asks nothing.
  await page.getByRole("button", { name: "Add source" }).click();
  await url.fill("https://github.com/forgiving/bank-templates");
  await dialog.getByLabel("Alias").fill("forgiving");
  await dialog.getByRole("button", { name: "Add source" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("rowheader", { name: "forgiving" })).toBeVisible();
  await consoleNav(page).getByRole("link", { name: "Banks", exact: true }).click();
  await expect(pageHeading(page, "Banks")).toBeVisible();
  await expect(discardDialog(page)).toHaveCount(0);
  // Left, it would fail a retry of console.spec (run after this file), where the admin has no personal sources.
  await apiCall(request, "DELETE", FORGIVING_SOURCE, ADMIN_HEADERS);
});

test("a new API key's dialog stays open until the key was copied or kept", async ({ page, context, baseURL, request }) => {
  // A clean slate: a retry runs the test again on the same data.
  await deleteIfPresent(request, "/ext/svc/me/service-accounts/forgiving-bot");
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await consoleNav(page).getByRole("link", { name: "Account", exact: true }).click();
  await expect(pageHeading(page, "Account")).toBeVisible();

  await page.getByRole("button", { name: "Create API key" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New API key for you", exact: true });
  await dialog.getByLabel("Description").fill("forgiving");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const token = dialog.getByLabel("New API key");
  await expect(token).toBeVisible();
  const done = dialog.getByRole("button", { name: "Done" });
  await expect(done).toBeDisabled();
  await expect(dialog.getByRole("button", { name: "Close" })).toHaveCount(0);

  await page.keyboard.press("Escape");
  await page.mouse.click(8, 400);
  await page.waitForTimeout(400); // a closing dialog would be fading out by now
  await expect(dialog).toBeVisible();
  await expect(token).toBeVisible();

  // Copying is confirmation enough: Done closes it.
  await dialog.getByRole("button", { name: "Copy key" }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe((await token.innerText()).trim());
  await expect(dialog.getByLabel("I have copied the key and stored it safely")).toBeChecked();
  await done.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("api-keys-table").first()).toContainText("forgiving");

  // A service account's key, from its keys under its row: the same, and Escape does not close it.
  await page.getByRole("button", { name: "New service account" }).click();
  const sa = page.getByRole("dialog", { name: "New service account", exact: true });
  await sa.getByLabel("ID").fill("forgiving-bot");
  await sa.getByRole("button", { name: "Create service account" }).click();
  await expect(sa).toBeHidden();
  await page.getByRole("button", { name: "API keys of forgiving-bot" }).click();
  const saKeys = page.getByTestId("api-keys-row");
  await saKeys.getByRole("button", { name: "Create API key" }).click();
  const saKey = page.getByRole("dialog", { name: "New API key for service account forgiving-bot", exact: true });
  await saKey.getByRole("button", { name: "Create key" }).click();
  await expect(saKey.getByLabel("New API key")).toBeVisible();
  await page.keyboard.press("Escape");
  await page.waitForTimeout(400);
  await expect(saKey).toBeVisible();
  await saKey.getByLabel("I have copied the key and stored it safely").check();
  await saKey.getByRole("button", { name: "Done" }).click();
  await expect(saKey).toBeHidden();
  await expect(saKeys.getByTestId("api-keys-table")).toBeVisible();
  await page.getByRole("button", { name: "API keys of forgiving-bot" }).click();
  await expect(saKeys).toHaveCount(0);
});

test("with the server stopped the console says so and waits; started again, it goes on in the same document", async ({ page, watch }) => {
  test.setTimeout(300_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bank-templates-forgiving-"));
  const server = new ServerProcess(3289, {
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_TOKEN: "forgiving-admin-token-0123456789abcdef0123456789ab",
    BOOTSTRAP_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
    LOG_LEVEL: "warn",
  });
  // Whatever the page asks while the server is down fails to connect; that is the point. (A
  // navigation's JavaScript chunk is one such request, when the page has not loaded it before.)
  watch.expectError(/net::ERR_|Failed to load resource|Failed to load chunk/);
  const documents: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) documents.push(frame.url());
  });
  try {
    await server.start();
    await page.goto(`${server.baseUrl}/signin`);
    await signIn(page, "admin", E2E_ADMIN_PASSWORD);
    const nav = consoleNav(page);
    await nav.getByRole("link", { name: "Templates", exact: true }).click();
    await expect(pageHeading(page, "Templates")).toBeVisible();
    await page.evaluate(() => {
      (window as unknown as { __marker: string }).__marker = "the same document";
    });

    await server.stop();
    const unreachable = page.getByTestId("server-unreachable");
    await nav.getByRole("link", { name: "Banks", exact: true }).click();
    await expect(unreachable).toBeVisible();
    await expect(unreachable).toContainText("Can't reach the server");
    await expect(unreachable).toContainText(/Trying again/);
    await nav.getByRole("link", { name: "Account", exact: true }).click();
    await nav.getByRole("link", { name: "Users", exact: true }).click();
    await unreachable.getByRole("button", { name: "Retry" }).click();
    await expect(unreachable).toBeVisible();
    // Still this console, never the browser's error page.
    expect(page.url()).toMatch(new RegExp(`^${server.baseUrl}/`));
    expect(documents.some((url) => url.startsWith("chrome-error:"))).toBe(false);

    await server.start();
    // The last page asked for arrives by itself, in the same document.
    await expect(pageHeading(page, "Users")).toBeVisible({ timeout: 30_000 });
    await expect(unreachable).toBeHidden();
    await expect(page).toHaveURL(`${server.baseUrl}/admin/users`);
    expect(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker)).toBe("the same document");
    expect(documents.some((url) => url.startsWith("chrome-error:"))).toBe(false);
    await expect(page.getByTestId("users-table")).toBeVisible();

    // And it goes on as usual.
    await nav.getByRole("link", { name: "Sources", exact: true }).click();
    await expect(pageHeading(page, "Template sources")).toBeVisible();
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
