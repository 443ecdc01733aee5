import type { Page } from "@playwright/test";
import { expect, waitForHydration } from "./fixtures";

/** Signs in through the sign-in page and waits for the page it lands on: Home, unless the sign-in page was sent elsewhere. */
export async function signIn(page: Page, user: string, password: string, landsOn = "/") {
  if (!page.url().includes("/signin")) await page.goto("/signin");
  await expect(page.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
  await page.getByLabel("User name").fill(user);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${landsOn.replace(/[/?]/g, "\\$&")}$`));
  await expect(page.getByRole("button", { name: /^Account menu for / })).toBeVisible();
  await waitForHydration(page);
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
