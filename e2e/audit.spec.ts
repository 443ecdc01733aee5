import { readFileSync } from "node:fs";
import { ADMIN_HEADERS as admin, apiCall as api, auditRowsAfter, createFreshUser, deleteIfPresent } from "./support/api";
import { consoleNav, pageHeading, signIn, signOut } from "./support/console";
import { E2E_ADMIN_PASSWORD } from "./support/env";
import { expect, screenshot, screenshotBoth, test } from "./support/fixtures";
import { e2eManifest } from "./support/marketplace";
import { deleteTemplate } from "./support/template-steps";

// The audit log in the console (CONTRACT §14): member otto deletes his template in the console
// and admin ada deletes a server template through the API; the admin opens Audit log, filters
// by action, and finds who deleted which, with the server template's page linked.
test.describe.configure({ mode: "serial" });

const OTTO = { id: "otto", password: "otto's long e2e password" };
const HANDBOOK_TARGET = "/ext/svc/admin/templates/audit-handbook";
/** The rows each filter below shows: the earlier entries (see auditRowsAfter) and this run's two. */
const expectedRows = { deletes: 0, handbook: 0 };

test("setup: otto has a template; ada, an admin, made and deleted a server template with her key", async ({ request }) => {
  // A clean slate: a CI retry runs the whole serial file again on the same data.
  await deleteIfPresent(request, HANDBOOK_TARGET);
  await createFreshUser(request, { id: OTTO.id, password: OTTO.password });
  await createFreshUser(request, { id: "ada", role: "admin" });
  expectedRows.deletes = await auditRowsAfter(request, { action: "template.delete" }, 2);
  expectedRows.handbook = await auditRowsAfter(request, { target: HANDBOOK_TARGET }, 2);
  const key = await api(request, "POST", "/ext/svc/admin/users/ada/api-keys", admin, { description: "e2e" });
  const ada = { authorization: `Bearer ${key!.token as string}` };
  const ottoKey = await api(request, "POST", `/ext/svc/admin/users/${OTTO.id}/api-keys`, admin, {});
  const otto = { authorization: `Bearer ${ottoKey!.token as string}` };
  await api(request, "POST", "/ext/svc/me/templates", otto, { id: "otto-notes", name: "Otto's notes", manifest: e2eManifest() });
  await api(request, "POST", "/ext/svc/admin/templates", ada, { id: "audit-handbook", name: "Handbook", manifest: e2eManifest() });
  await api(request, "DELETE", HANDBOOK_TARGET, ada);
});

test("otto deletes his template in the console", async ({ page }) => {
  await signIn(page, OTTO.id, OTTO.password);
  await deleteTemplate(page, "otto-notes");
  await signOut(page);
});

test("the admin finds on the audit page who deleted which template", async ({ page }) => {
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await consoleNav(page).getByRole("link", { name: "Audit log" }).click();
  await expect(pageHeading(page, "Audit log")).toBeVisible();
  const table = page.getByTestId("audit-table");
  await expect(table).toBeVisible();

  // The actions are listed in words, none by its code.
  const action = page.getByLabel("Action", { exact: true });
  const options = await action.locator("option").allTextContents();
  expect(options).toContain("Template deleted");
  expect(options.filter((o) => /^[a-z_]+\.[a-z_.-]+$/.test(o))).toEqual([]);
  await action.selectOption({ label: "Template deleted" });
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/audit\?action=template\.delete$/);
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(expectedRows.deletes);
  // Newest first: otto's delete in the console, then ada's through the API; the action in words.
  await expect(rows.nth(0).locator("td[data-label='Action']")).toHaveText("Template deleted");
  await expect(rows.nth(0)).toContainText("otto");
  await expect(rows.nth(0)).toContainText("/ext/svc/me/templates/otto-notes");
  await expect(rows.nth(1)).toContainText("ada");
  // The target reads as its type and id ("Template audit-handbook"), linked, over its path.
  await expect(rows.nth(1)).toContainText(HANDBOOK_TARGET);
  const link = rows.nth(1).getByRole("link", { name: /audit-handbook/ });
  await expect(link).toHaveAttribute("href", "/templates/server/audit-handbook");
  // Another user's personal template is not the admin's to open: no link.
  await expect(rows.nth(0).getByRole("link")).toHaveCount(0);
  await screenshotBoth(page, "admin-audit");

  // The filters survive a reload, and the target filter narrows to one resource.
  await page.reload();
  await expect(page.getByLabel("Action", { exact: true })).toHaveValue("template.delete");
  await page.getByLabel("Target", { exact: true }).fill(HANDBOOK_TARGET);
  await page.getByLabel("Action", { exact: true }).selectOption("");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(rows).toHaveCount(expectedRows.handbook);
  await expect(rows.nth(0)).toContainText("Template deleted");
  await expect(rows.nth(1)).toContainText("Template created");
});

test("the admin compares an entry's before and after, filters by time and exports the selection", async ({ page, request }) => {
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await page.goto("/admin/audit?action=template.delete");
  await expect(pageHeading(page, "Audit log")).toBeVisible();
  const table = page.getByTestId("audit-table");
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(expectedRows.deletes);

  // Otto's delete: the template before, nothing after; the diff opens under its row and closes again.
  const show = rows.nth(0).getByRole("button", { name: /^Show the changes of Template deleted/ });
  await expect(show).toHaveAttribute("aria-expanded", "false");
  await show.click();
  const changes = page.getByTestId("audit-changes");
  await expect(changes).toBeVisible();
  await expect(changes.getByTestId("manifest-diff")).toContainText("after (none: deleted)");
  await expect(changes).toContainText("otto-notes");
  await screenshot(page, "admin-audit-changes");
  await rows
    .nth(0)
    .getByRole("button", { name: /^Hide the changes/ })
    .click();
  await expect(changes).toHaveCount(0);

  // Dates: nothing happened after tomorrow; everything so far happened before it.
  const tomorrow = new Date(Date.now() + 86_400_000);
  const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  await page.getByLabel("From", { exact: true }).fill(local);
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(/[?&]from=/);
  await expect(page.getByText("No entries")).toBeVisible();
  await page.getByLabel("From", { exact: true }).fill("");
  await page.getByLabel("To", { exact: true }).fill(local);
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(/[?&]to=/);
  await expect(rows).toHaveCount(expectedRows.deletes);

  // Export: the NDJSON of the current filters, every entry, the same as the API's export.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export", exact: true }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe("audit-log.ndjson");
  const exported = readFileSync((await file.path())!, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { action: string; target: string; actor: { principal_id: string } });
  const byApi = await request.get("/ext/svc/admin/audit/export?action=template.delete", { headers: admin });
  expect(byApi.headers()["content-type"]).toBe("application/x-ndjson");
  expect(exported).toHaveLength((await byApi.text()).split("\n").filter(Boolean).length);
  expect(exported.every((entry) => entry.action === "template.delete")).toBe(true);
  expect(exported.slice(0, 2).map((entry) => [entry.actor.principal_id, entry.target])).toEqual([
    [OTTO.id, "/ext/svc/me/templates/otto-notes"],
    ["ada", HANDBOOK_TARGET],
  ]);
});
