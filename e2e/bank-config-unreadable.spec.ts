import type { Page, Route } from "@playwright/test";
import { ADMIN_HEADERS as admin, apiCall as api, createFreshUser, deleteBankIfPresent } from "./support/api";
import { openBank, pickTemplate } from "./support/bank-steps";
import { signIn } from "./support/console";
import { expect, test } from "./support/fixtures";

// CONTRACT §19: a Hindsight bank whose config Hindsight would not show (its bank-config API turned
// off) is not a missing bank; the API says `config_unreadable`, and the console says it in words on
// the bank's page and in the preview of a template applied to it. The browser tests' server uses
// the embedded store, so the bank's answers are given that flag on their way to the page, as a
// remote store's would carry it (tests/banks-remote-config-off.test.ts checks the API itself).
test.describe.configure({ mode: "serial" });

const IRIS = "iris";
const IRIS_PASSWORD = "iris's long password";
const BANK = "ops:hindsight";
const BANK_PATH = `/ext/svc/banks/${encodeURIComponent(BANK)}`;
const MANIFEST = {
  version: "1",
  bank: { reflect_mission: "Answer on-call questions.", disposition_empathy: 4 },
  directives: [{ name: "Cite runbooks", content: "Link the runbook." }],
};

// Banks outlive their owner, and Home counts every bank an admin sees: later specs expect none.
test.afterAll(async ({ request }) => {
  await deleteBankIfPresent(request, BANK);
});

test("setup: member iris has a template and a bank made from it", async ({ request }) => {
  // A clean slate: a CI retry runs the whole serial file again on the same data.
  await deleteBankIfPresent(request, BANK);
  await createFreshUser(request, { id: IRIS, display_name: "Iris", password: IRIS_PASSWORD });
  const key = await api(request, "POST", `/ext/svc/admin/users/${IRIS}/api-keys`, admin, { description: "config unreadable e2e setup" });
  const iris = { authorization: `Bearer ${key!.token as string}` };
  await api(request, "POST", "/ext/svc/me/templates", iris, { id: "ops-basics", name: "Ops basics", manifest: MANIFEST });
  await api(request, "POST", "/ext/svc/banks", iris, { bank_id: BANK, template: "ops-basics" });
});

/** Answers `route` with the server's own answer, changed by `edit`. */
async function edited(route: Route, edit: (body: Record<string, unknown>) => Record<string, unknown>) {
  const response = await route.fetch();
  await route.fulfill({ response, json: edit((await response.json()) as Record<string, unknown>) });
}

/** Every answer about the bank as a remote store gives it when Hindsight would not show its config. */
async function configUnreadable(page: Page) {
  await page.route(
    (url) => url.pathname === BANK_PATH,
    (route) =>
      route.request().method() === "GET" ? edited(route, (bank) => ({ ...bank, config: {}, config_unreadable: true })) : route.continue(),
  );
  await page.route(
    (url) => url.pathname === "/ext/svc/banks" && url.searchParams.get("dry_run") === "true",
    (route) =>
      edited(route, (answer) => ({
        ...answer,
        changes: { ...(answer.changes as Record<string, unknown>), config: [], config_unreadable: true },
      })),
  );
}

test("the bank's page and a template's preview say that Hindsight would not show the bank's config", async ({ page }) => {
  await configUnreadable(page);
  await signIn(page, IRIS, IRIS_PASSWORD);
  await openBank(page, BANK);

  const config = page.getByRole("region", { name: "Config overrides" });
  await expect(config.getByTestId("config-unreadable")).toContainText("Hindsight would not show this bank's config");
  await expect(config.getByTestId("config-unreadable")).toContainText("A download or template made from this bank leaves config out.");
  await expect(config.getByTestId("bank-config")).toHaveCount(0);
  // What Hindsight did answer still shows.
  await expect(page.getByRole("heading", { name: "Directives (1)" })).toBeVisible();

  await page.getByRole("button", { name: "Apply template" }).click();
  const dialog = page.getByRole("dialog", { name: `Apply a template to ${BANK}` });
  await pickTemplate(dialog, page, "personal/ops-basics");
  await dialog.getByRole("button", { name: "Preview" }).click();
  const preview = dialog.getByTestId("import-preview");
  await expect(preview).toContainText(`Bank ${BANK} exists: Apply updates it.`);
  await expect(preview.getByTestId("config-changes")).toHaveText(
    "Hindsight would not show this bank's config (its bank-config API is turned off), so what the template's config fields replace is unknown: none is listed.",
  );
});
