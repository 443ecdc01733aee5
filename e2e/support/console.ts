import type { Page } from "@playwright/test";
import { expect, waitForHydration } from "./fixtures";

/**
 * Signs in and waits for the page it lands on: Home, unless the sign-in page was sent elsewhere.
 * On the sign-in page (a test went there, or was sent there), through its form. From anywhere
 * else, where signing in only sets a test up, with the request the form makes (next-auth's
 * credentials callback, sent from the page's own context, whose cookies it sets), then opens
 * `landsOn`: the same session without loading and hydrating the sign-in page and its redirect,
 * a second of a busy runner's browser each time.
 */
export async function signIn(page: Page, user: string, password: string, landsOn = "/") {
  if (!page.url().includes("/signin")) return signInBehindTheForm(page, user, password, landsOn);
  await expect(page.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
  await page.getByLabel("User name").fill(user);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${landsOn.replace(/[/?]/g, "\\$&")}$`));
  await expect(page.getByRole("button", { name: /^Account menu for / })).toBeVisible();
  await waitForHydration(page);
}

async function signInBehindTheForm(page: Page, user: string, password: string, landsOn: string) {
  const csrf = await page.request.get("/api/auth/csrf");
  expect(csrf.status()).toBe(200);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const answer = await page.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, username: user, password, callbackUrl: landsOn, json: "true" },
  });
  expect(answer.status(), `signing in as ${user}`).toBe(200);
  // Refused, next-auth answers 200 too, with the sign-in page's error in the URL.
  expect(((await answer.json()) as { url: string }).url, `signing in as ${user}`).not.toContain("error=");
  await page.goto(landsOn);
  await expect(page.getByRole("button", { name: /^Account menu for / })).toBeVisible();
}

/** Signs out through the user menu and checks the sign-in page says so. */
export async function signOut(page: Page) {
  await page.getByRole("button", { name: /^Account menu for / }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin\?signedOut=1$/);
  await expect(page.getByText("You are signed out.")).toBeVisible();
}

/** The console's navigation landmark. */
export const consoleNav = (page: Page) => page.getByRole("navigation", { name: "Console" });

/** The h1 of the page. */
export const pageHeading = (page: Page, name: string) => page.getByRole("heading", { name, level: 1 });
