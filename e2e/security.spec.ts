import { createFreshUser } from "./support/api";
import { consoleNav, pageHeading, signIn, signOut } from "./support/console";
import { E2E_ADMIN_PASSWORD, E2E_ADMIN_TOKEN } from "./support/env";
import { expect, screenshot, test } from "./support/fixtures";

// CONTRACT §10-§11 as a browser and a client see them: security headers with the CSP on
// (every spec fails on a CSP violation, since Chromium reports one as a console error),
// malformed paths answered by the API, and sessions that end when they should.
test.describe.configure({ mode: "serial" });

const bearer = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };
const PETRA_PASSWORD = "petra's first long password";
const PETRA_NEW_PASSWORD = "petra's second long password";
/** Whom the last test throttles; see beforeAll. */
let throttled = "mallory";

// Failed sign-ins count per user name and address for 15 minutes and cannot be reset. A CI retry runs the whole
// serial file again on the same data: when petra (made below) is there, an earlier try may have
// throttled "mallory" already, so this run throttles a name of its own.
test.beforeAll(async ({ request }) => {
  if ((await request.get("/ext/svc/admin/users/petra", { headers: bearer })).ok()) throttled = `mallory-${Date.now().toString(36)}`;
});

test("console pages carry the security headers and cannot be framed", async ({ request }) => {
  for (const path of ["/signin", "/sources", "/api-reference"]) {
    const res = await request.get(path, { maxRedirects: 0 });
    const headers = res.headers();
    expect(headers["content-security-policy"], path).toMatch(/frame-ancestors 'none'/);
    expect(headers["content-security-policy"], path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(headers["x-request-id"], path).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    // Plain http here: HSTS is sent over https only.
    expect(headers["strict-transport-security"], path).toBeUndefined();
  }
  const api = await request.get("/ext/svc/me", { headers: { ...bearer, "x-request-id": "e2e-trace-1" } });
  expect(api.headers()["x-request-id"]).toBe("e2e-trace-1");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
});

test("a path with invalid percent-encoding answers 400 problem+json, with or without credentials", async ({ request }) => {
  for (const headers of [{}, bearer]) {
    const res = await request.get("/ext/svc/me/templates/%ff", { headers });
    expect(res.status()).toBe(400);
    expect(res.headers()["content-type"]).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ type: "urn:bank-templates:problem:invalid-path-encoding", status: 400 });
  }
});

test("the API reference renders under the CSP", async ({ page }) => {
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await page.goto("/api-reference");
  await expect(pageHeading(page, "API reference")).toBeVisible();
  await expect(page.getByTestId("api-reference").getByText("/ext/svc/me/password").first()).toBeVisible({ timeout: 60_000 });
});

test("sign-out ends the session even for a copy of its cookie", async ({ page, browser, request }) => {
  await createFreshUser(request, { id: "petra", display_name: "Petra", password: PETRA_PASSWORD });
  await page.goto("/signin");
  await signIn(page, "petra", PETRA_PASSWORD);
  const copy = await browser.newContext({ storageState: await page.context().storageState() });
  const copied = await copy.newPage();
  await copied.goto("/sources");
  await expect(copied.getByRole("button", { name: /^Account menu for / })).toBeVisible();

  await signOut(page);
  await copied.goto("/sources");
  await expect(copied).toHaveURL(/\/signin/);
  await copy.close();
});

test("changing one's password keeps this session and ends the others", async ({ page, browser }) => {
  await page.goto("/signin");
  await signIn(page, "petra", PETRA_PASSWORD);
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, "petra", PETRA_PASSWORD);

  await consoleNav(page).getByRole("link", { name: "Account" }).click();
  await page.getByRole("button", { name: "Change password" }).click();
  const dialog = page.getByRole("dialog", { name: "Change your password" });
  await dialog.getByLabel("Current password").fill(PETRA_PASSWORD);
  await dialog.getByLabel(/^New password/).fill(PETRA_NEW_PASSWORD);
  await dialog.getByLabel(/Repeat/).fill(PETRA_NEW_PASSWORD);
  await dialog.getByRole("button", { name: "Save new password" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Password changed" })).toContainText("other console sessions were signed out");
  await screenshot(page, "account-password-changed");

  await page.reload();
  await expect(page.getByRole("button", { name: /^Account menu for / })).toBeVisible();
  await otherPage.goto("/sources");
  await expect(otherPage).toHaveURL(/\/signin/);
  await signIn(otherPage, "petra", PETRA_NEW_PASSWORD);
  await other.close();
});

test("the sign-in page says plainly when an account is throttled after 10 failed sign-ins", async ({ page, watch }) => {
  watch.expectError(/callback\/credentials → (401|429)|status of (401|429)/);
  await page.goto("/signin");
  const attempt = async () => {
    await page.getByLabel("User name").fill(throttled);
    await page.getByRole("textbox", { name: "Password", exact: true }).fill("a guess at the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
  };
  for (let i = 0; i < 10; i++) {
    await attempt();
    await expect(page.getByTestId("signin-error")).toContainText("The user name or password is wrong");
  }
  await attempt();
  await expect(page.getByTestId("signin-error")).toContainText(/Too many attempts from here\. Try again in 15 minutes\./);
  await screenshot(page, "signin-throttled");
});
