import type { Page } from "@playwright/test";
import { consoleNav, pageHeading } from "./console";
import { expect } from "./fixtures";

// Steps an admin takes in the console; each checks what the page then shows.

/** Admin › Users › New user: creates an active member with a password and sees their row. */
export async function createMember(page: Page, user: { id: string; displayName: string; email: string; password: string }) {
  await consoleNav(page).getByRole("link", { name: "Users", exact: true }).click();
  await expect(pageHeading(page, "Users")).toBeVisible();
  const table = page.getByTestId("users-table");
  await expect(table.getByRole("rowheader", { name: /admin/ })).toBeVisible();
  await page.getByRole("button", { name: "New user" }).click();
  const dialog = page.getByRole("dialog", { name: "New user", exact: true });
  await dialog.getByLabel("User name").fill(user.id);
  await dialog.getByLabel("Display name").fill(user.displayName);
  await dialog.getByLabel("Email").fill(user.email);
  await dialog.getByRole("textbox", { name: "Password", exact: true }).fill(user.password);
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog).toBeHidden();
  const row = table.getByRole("row").filter({ hasText: user.email });
  await expect(row).toContainText(user.displayName);
  await expect(row).toContainText("member");
  await expect(row).toContainText("active");
  // Signs in with a password (not single sign-on).
  await expect(row.getByRole("cell", { name: "password", exact: true })).toBeVisible();
}
