import type { Page } from "@playwright/test";
import { ADMIN_HEADERS as admin, apiCall as api, createFreshUser, deleteBankIfPresent, expectOk } from "./support/api";
import { axeFindings } from "./support/axe";
import { field, openBank } from "./support/bank-steps";
import { pageHeading, signIn } from "./support/console";
import { DESKTOP, expect, MOBILE, screenshot, screenshotBoth, test } from "./support/fixtures";

// Issue 20 (CONTRACT §16): a bank's policy history. Member pia (made through the API) sets a
// policy (v1), then saves a bad one (v2) in the editor, whose strategy fields offer the retain
// strategies her bank's config defines; she finds the change in the policy's History, sees its
// diff, restores v1 from there (the notice names the version put back), and finds the three
// changes in the bank's history too, the restore naming the version it put back.
test.describe.configure({ mode: "serial" });

const PIA = "pia";
const PIA_PASSWORD = "pia's long password";
const BANK = "policy:history";

const V1 = {
  version: "2026-03-24",
  default_strategy: "balanced",
  public_access: { default: { actions: ["bank:recall"], recall_budget: "low" } },
};
const bankPath = `/ext/svc/banks/${encodeURIComponent(BANK)}`;

/** The editor's JSON view, parsed (its whole text sits in a hidden text area). */
async function editorDocument(page: Page) {
  return JSON.parse(await page.getByTestId("policy-json-value").inputValue()) as Record<string, unknown>;
}

test("setup: member pia owns a bank whose policy is v1", async ({ request }) => {
  // A clean slate: a CI retry runs the whole serial file again on the same data. Deleting the bank
  // takes its policy history along (CONTRACT §19), so this try's entries are the bank's only ones.
  await deleteBankIfPresent(request, BANK);
  await createFreshUser(request, { id: PIA, display_name: "Pia", password: PIA_PASSWORD });
  const key = await api(request, "POST", `/ext/svc/admin/users/${PIA}/api-keys`, admin, { description: "policy history e2e setup" });
  const pia = { authorization: `Bearer ${key!.token as string}` };
  await api(request, "POST", "/ext/svc/me/templates", pia, {
    id: "policy-base",
    name: "Policy base",
    manifest: {
      version: "1",
      bank: { reflect_mission: "Answer questions.", retain_strategies: { thorough: {}, quick: {} }, retain_default_strategy: "thorough" },
    },
  });
  await api(request, "POST", "/ext/svc/banks", pia, { bank_id: BANK, template: "policy-base" });
  await expectOk(await request.put(`${bankPath}/policy`, { headers: pia, data: { document: V1 } }));
});

test("pia saves a bad policy, finds it in History with its diff, and restores v1 from there", async ({ page }) => {
  await signIn(page, PIA, PIA_PASSWORD);
  await openBank(page, BANK);
  await page.getByRole("link", { name: "Policy", exact: true }).click();
  await expect(pageHeading(page, "Bank policy")).toBeVisible();
  const form = page.getByTestId("policy-form");
  await expect(field(form, "Default strategy")).toHaveValue("balanced");

  // The strategy fields offer the strategies the bank's config defines and the one its policy
  // uses; another name may still be typed.
  await expect(form.getByTestId("strategy-names-hint")).toContainText("the retain strategies this bank's config defines");
  await field(form, "Default strategy").fill("");
  await expect(page.getByRole("listbox").getByRole("option")).toHaveText(["balanced", "quick", "thorough"]);
  await screenshot(page, "bank-policy-strategies");
  await page.getByRole("listbox").getByRole("option", { name: "quick" }).click();
  await expect(field(form, "Default strategy")).toHaveValue("quick");
  await form.getByRole("button", { name: "Add strategy override" }).click();
  const override = field(form.getByTestId("strategy-override-0"), "Strategy");
  await override.click();
  await expect(page.getByRole("listbox").getByRole("option")).toHaveText(["balanced", "quick", "thorough"]);
  await override.fill("night-shift");
  await expect(page.getByRole("listbox")).toHaveCount(0);
  await expect(override).toHaveValue("night-shift");
  await form.getByRole("button", { name: "Remove strategy override 1" }).click();

  // v2: a valid document with a bad value, saved from the form.
  await field(form, "Default strategy").fill("reckless");
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByTestId("policy-status")).toHaveText("Policy saved.");

  // History: newest first, the newest (v2, the policy now) open with its diff.
  await page.getByRole("tab", { name: "History" }).click();
  await expect(page).toHaveURL(/\?tab=history$/);
  const changes = page.getByTestId("policy-history").getByTestId("policy-change");
  await expect(changes.nth(0)).toContainText("Changed");
  await expect(changes.nth(0)).toContainText(`by ${PIA}`);
  await expect(changes.nth(0)).toContainText("Current");
  await expect(changes.nth(1)).toContainText("Created");
  const newestDiff = changes.nth(0).getByTestId("manifest-diff");
  await expect(newestDiff).toContainText('"default_strategy": "balanced"');
  await expect(newestDiff).toContainText('"default_strategy": "reckless"');
  await expect(changes.nth(0).getByRole("button", { name: /^Restore this/ })).toHaveCount(0);

  // v1's change: its diff from no policy, and Restore this (confirmed).
  await changes
    .nth(1)
    .getByRole("button", { name: /Created/ })
    .click();
  await expect(changes.nth(1).getByTestId("manifest-diff")).toContainText("before (none: created)");
  const createdAt = (await changes
    .nth(1)
    .getByTitle(/^\d{4}-/)
    .textContent())!.trim();
  await changes
    .nth(1)
    .getByRole("button", { name: /^Restore this/ })
    .click();
  const dialog = page.getByRole("dialog", { name: "Restore this policy?" });
  await expect(dialog).toContainText("puts back the policy document this change left");
  await dialog.getByRole("button", { name: "Restore", exact: true }).click();
  await expect(dialog).toBeHidden();

  // The editor again, holding v1.
  // The notice names the version put back: v1's change, when and by whom.
  await expect(page.getByTestId("policy-restored")).toContainText(`Policy restored to the version of ${createdAt} by ${PIA}`);
  await expect(page.getByRole("tab", { name: "Editor" })).toHaveAttribute("aria-selected", "true");
  await expect(field(form, "Default strategy")).toHaveValue("balanced");
  expect(await editorDocument(page)).toEqual(V1);
  await expect(page.getByTestId("policy-status")).toHaveText("");

  // The restore is a change of its own, on top.
  await page.getByRole("tab", { name: "History" }).click();
  await expect(changes.nth(0)).toContainText("Restored");
  await expect(changes.nth(0)).toContainText(`Restored the policy to the version of ${createdAt} by ${PIA}.`);
  await expect(changes.nth(0).getByTestId("manifest-diff")).toContainText('"default_strategy": "reckless"');
  await screenshotBoth(page, "lifecycle-policy-history");
  // The History tab, a change open with its diff, passes axe at both widths.
  for (const size of [DESKTOP, MOBILE]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(250);
    expect(await axeFindings(page, { path: "/banks/{bank_id}/policy?tab=history", width: size.width, scheme: "light" })).toEqual([]);
  }
  await page.setViewportSize(DESKTOP);
});

test("the bank's history lists the three policy changes above its import, linking to the policy's History", async ({ page }) => {
  await signIn(page, PIA, PIA_PASSWORD);
  await openBank(page, BANK);
  const rows = page
    .getByTestId("bank-history")
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader") });
  // The restore says which version it put back: the first change's, by pia; no cell says just "none".
  await expect(rows.nth(0)).toContainText("Policy restored");
  await expect(rows.nth(0)).toContainText(new RegExp(`restored the policy to the version of .+ by ${PIA}`));
  await expect(rows.nth(1)).toContainText("Policy changed");
  await expect(rows.nth(1)).toContainText("replaced the policy");
  await expect(rows.nth(2)).toContainText("Policy changed");
  await expect(rows.nth(2)).toContainText("set a policy where there was none");
  await expect(rows.nth(3)).toContainText("personal/policy-base");
  await expect(rows.nth(3)).toContainText("version 1");
  for (const i of [0, 1, 2]) await expect(rows.nth(i)).toContainText(PIA);
  await expect(rows.getByRole("cell", { name: "none", exact: true })).toHaveCount(0);
  await screenshotBoth(page, "bank-history-policy");

  await rows.nth(1).getByRole("link", { name: "Policy changed" }).click();
  await expect(pageHeading(page, "Bank policy")).toBeVisible();
  await expect(page.getByRole("tab", { name: "History" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("policy-history").getByTestId("policy-change")).not.toHaveCount(0);
});

test("cleanup: pia's bank, its policy and pia go", async ({ request }) => {
  await deleteBankIfPresent(request, BANK);
  await expectOk(await request.delete(`/ext/svc/admin/users/${PIA}`, { headers: admin }));
});
