import { createFreshUser } from "./support/api";
import { consoleNav, signIn } from "./support/console";
import { expect, screenshot, test } from "./support/fixtures";

// Your sessions (CONTRACT §11, §18): the Account page lists where you are signed in, and
// "Sign out everywhere else" ends the other sessions on their next request.
const QUINN_PASSWORD = "quinn's long console password";
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

test("the Account page lists both sessions, and signing out everywhere else ends the other one", async ({ page, browser, request }) => {
  await createFreshUser(request, { id: "quinn", display_name: "Quinn", password: QUINN_PASSWORD });
  await page.goto("/signin");
  await signIn(page, "quinn", QUINN_PASSWORD);
  const other = await browser.newContext({ userAgent: FIREFOX_ON_WINDOWS });
  const otherPage = await other.newPage();
  await signIn(otherPage, "quinn", QUINN_PASSWORD);

  await consoleNav(page).getByRole("link", { name: "Account" }).click();
  const table = page.getByTestId("sessions-table");
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(2);
  const current = rows.filter({ hasText: "This session" });
  await expect(current).toHaveCount(1);
  await expect(current.getByRole("button", { name: /^Sign out/ })).toHaveCount(0);
  const otherRow = rows.filter({ hasText: "Firefox on Windows" });
  await expect(otherRow).toHaveCount(1);
  await expect(otherRow).not.toContainText("This session");
  await expect(otherRow.getByRole("button", { name: "Sign out the session in Firefox on Windows" })).toBeVisible();
  await screenshot(page, "account-sessions");

  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  const dialog = page.getByRole("dialog", { name: "Sign out everywhere else?" });
  await expect(dialog).toContainText("1 other session");
  await dialog.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("This session");
  await expect(page.getByRole("button", { name: "Sign out everywhere else" })).toBeDisabled();

  await otherPage.goto("/sources");
  await expect(otherPage).toHaveURL(/\/signin/);
  await other.close();

  await page.reload();
  await expect(page.getByRole("button", { name: /^Account menu for / })).toBeVisible();
  await expect(page.getByTestId("sessions-table").locator("tbody tr")).toHaveCount(1);
});
