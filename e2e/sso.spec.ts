import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { axeFindings } from "./support/axe";
import { signIn, signOut } from "./support/console";
import { E2E_ADMIN_PASSWORD, E2E_ADMIN_TOKEN, E2E_PORT } from "./support/env";
import { expect, screenshotBoth, test, waitForHydration } from "./support/fixtures";
import { TestOidcProvider } from "./support/oidc-provider";
import { ServerProcess } from "./support/server-process";

// Single sign-on in a browser, through a real OpenID provider's own login and consent pages
// (oidc-provider, e2e/support/oidc-provider.ts: email and groups from userinfo only), on a
// server of this file's own with OIDC_* set, so the other files' servers are left as they are.
// Each failure's reason and the user rules are tested in depth by tests/sso.test.ts; here, that
// a person gets through, and what the sign-in page says when they do not.

const PORT = E2E_PORT + 30;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.describe.configure({ mode: "serial" });
test.use({ baseURL: BASE });

const provider = new TestOidcProvider([`${BASE}/api/auth/callback/oidc`]);
let dataDir: string;
let server: ServerProcess;

/** (Re)starts this file's server on its data folder with these settings beside the provider's. */
async function startServer(settings: Record<string, string>) {
  await server?.stop();
  server = new ServerProcess(PORT, {
    ...provider.consoleEnv,
    ...settings,
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
    BOOTSTRAP_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
    LOG_LEVEL: "warn",
  });
  await server.start();
}

test.beforeAll(async () => {
  test.setTimeout(600_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "bank-templates-sso-"));
  await provider.start();
  await startServer({ OIDC_CREATE_USERS: "true", OIDC_ADMIN_GROUPS: "ops" });
});

test.afterAll(async () => {
  await server?.stop();
  await provider.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test.beforeEach(async ({ page }) => {
  // The provider's pages load a web font; the tests have no network.
  await page.route("https://fonts.googleapis.com/**", (route) => route.fulfill({ status: 200, contentType: "text/css", body: "" }));
});

/**
 * From the sign-in page, clicks "Sign in with Test IdP" and goes through the provider's pages as
 * `login`: its login page when it has no session for this browser yet, its consent page the
 * first time; until the console's page (signed in, or the sign-in page saying why not).
 */
async function signInWithProvider(page: Page, login: string) {
  await page.goto("/signin");
  let from = page.url();
  await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
  for (let step = 0; step < 3; step++) {
    // Each of the provider's pages is a new interaction (its own /interaction/{uid}), so each step moves the URL on.
    await page.waitForURL(
      (url) =>
        url.toString() !== from &&
        (url.origin === BASE ? !url.pathname.startsWith("/api/auth/") : url.pathname.startsWith("/interaction/")),
    );
    from = page.url();
    if (from.startsWith(BASE)) break;
    const loginField = page.getByPlaceholder("Enter any login");
    if (await loginField.isVisible()) {
      await loginField.fill(login);
      await page.getByPlaceholder("and password").fill("whatever the provider checks");
      await page.getByRole("button", { name: "Sign-in" }).click();
    } else {
      await page.getByRole("button", { name: "Continue" }).click();
    }
  }
  await waitForHydration(page);
}

/** The sign-in page's refusal, in words. */
const refusal = (page: Page) => page.getByTestId("signin-error");

const userOf = async (request: APIRequestContext, id: string) =>
  (await request.get(`${BASE}/ext/svc/admin/users/${id}`, { headers: ADMIN })).json();

test("a first sign-in makes a member (admin by group), found by sub after the email changed, demoted once the group is gone", async ({
  page,
  request,
}) => {
  await page.goto("/signin");
  await expect(page.getByRole("button", { name: "Sign in with Test IdP" })).toBeVisible();
  await screenshotBoth(page, "signin-sso");
  expect(await axeFindings(page, { path: "/signin", width: 1280, scheme: "light", state: "single sign-on" })).toEqual([]);

  provider.setUser("sub-rosa", { email: "rosa@example.org", preferred_username: "rosa", name: "Rosa Diaz", groups: ["ops"] });
  await signInWithProvider(page, "sub-rosa");
  await expect(page).toHaveURL(`${BASE}/`);
  await expect(page.getByRole("button", { name: "Account menu for Rosa Diaz" })).toBeVisible();
  expect(await userOf(request, "rosa")).toMatchObject({ role: "admin", has_password: false, sso_identity: { subject: "sub-rosa" } });
  await signOut(page);

  provider.setUser("sub-rosa", { email: "rosa.diaz@example.org", preferred_username: "rosa.d", groups: ["developers"] });
  await signInWithProvider(page, "sub-rosa");
  await expect(page.getByRole("button", { name: "Account menu for Rosa Diaz" })).toBeVisible();
  expect(await userOf(request, "rosa")).toMatchObject({ role: "member", sso_identity: { email: "rosa.diaz@example.org" } });
  expect((await request.get(`${BASE}/ext/svc/admin/users/rosa.d`, { headers: ADMIN })).status()).toBe(404);
  await signOut(page);
});

test("the users list says how each user signs in and when, and unlinks an account", async ({ page }) => {
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await page.goto("/admin/users");
  const rosa = page.getByTestId("users-table").getByRole("row").filter({ hasText: "Rosa Diaz" });
  await expect(rosa.getByTestId("sign-in-methods")).toContainText("SSO");
  await expect(rosa.getByTestId("sign-in-methods")).toContainText(`rosa.diaz@example.org at 127.0.0.1:`);
  await expect(rosa).not.toContainText("never");
  await rosa.getByRole("button", { name: "Unlink the single-sign-on account of user rosa" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Unlink" }).click();
  await expect(rosa.getByTestId("sign-in-methods")).toHaveText("API keys only");
  await signOut(page);
});

test("refusals say why on the sign-in page: an unverified email, a tampered state, a provider that is down (passwords still work)", async ({
  page,
}) => {
  provider.setUser("sub-uma", { email: "uma@example.org", email_verified: false });
  await signInWithProvider(page, "sub-uma");
  await expect(refusal(page)).toContainText("has not verified your email address");
  await page.context().clearCookies();

  provider.setUser("sub-vic", { email: "vic@example.org" });
  // The browser is sent back with a state this browser never started (Playwright does not route a redirect's target).
  provider.tamperNextCallback((callback) => callback.searchParams.set("state", "forged"));
  await signInWithProvider(page, "sub-vic");
  await expect(refusal(page)).toContainText("could not be matched to one started in this browser");

  await provider.stop();
  try {
    await signInWithProvider(page, "sub-vic");
    await expect(refusal(page)).toContainText("provider cannot be reached");
    await signIn(page, "admin", E2E_ADMIN_PASSWORD);
    await signOut(page);
  } finally {
    await provider.start();
  }
});

test("PASSWORD_SIGN_IN=false: single sign-on only, but for the bootstrap admin; without creation an unknown account is told to ask", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await startServer({ PASSWORD_SIGN_IN: "false" });
  await page.goto("/signin");
  await expect(page.getByRole("button", { name: "Sign in with Test IdP" })).toBeVisible();
  await expect(page.getByLabel("User name")).toHaveCount(0);
  await screenshotBoth(page, "signin-sso-only");
  expect(await axeFindings(page, { path: "/signin", width: 1280, scheme: "light", state: "PASSWORD_SIGN_IN=false" })).toEqual([]);

  provider.setUser("sub-wes", { email: "wes@example.org" });
  await signInWithProvider(page, "sub-wes");
  await expect(refusal(page)).toContainText("Ask an administrator to create your user first");

  await page.getByRole("button", { name: "Administrator: sign in with a password" }).click();
  await expect(page.getByLabel("User name")).toHaveValue("admin");
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(E2E_ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("button", { name: "Account menu for Administrator" })).toBeVisible();
  await waitForHydration(page);
  await signOut(page);
});
