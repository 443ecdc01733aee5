import type { APIRequestContext, Page } from "@playwright/test";
import { ADMIN_HEADERS as admin, apiCall as api, createFreshUser, deleteBankIfPresent, deleteIfPresent } from "./support/api";
import { openBank, openBanks } from "./support/bank-steps";
import { signIn } from "./support/console";
import { DESKTOP, expect, MOBILE, overlayScreenshot, screenshotBoth, test } from "./support/fixtures";

// Issue 20 (CONTRACT §16): a bank says which template version it was made from and whether it is
// behind; the template page lists its banks and rolls its newest version out to them, bank by bank,
// with a preview first, an honest summary, and a retry of the banks that failed.
// Member mia (made through the API) has three banks from her template "notes", which then gets a
// second version. Between the preview and Apply, one of the bank ids passes to member bob, so that
// bank is refused; once it is free again the retry succeeds.
// Issue 33: a rollout is aimed (the banks chosen, in waves: version 3 goes to two banks first, then
// the third), its preview groups banks whose changes are the same (200 banks, one group), and a
// rollback (version 4 restores version 1) is named as one on Home, the banks' pages, the template's
// page and in the rollout, whose confirmation says how many banks were made from the template.
test.describe.configure({ mode: "serial" });

const MIA = "rollout-mia";
const MIA_PASSWORD = "mia's long rollout password";
const BOB = "rollout-bob";
const BANKS = ["mia-notes-1", "mia-notes-2", "mia-notes-3"];
const TAKEN = BANKS[2]!;

const V1 = {
  version: "1",
  bank: { retain_mission: "Keep decisions and their reasons.", disposition_skepticism: 3 },
  mental_models: [{ id: "decisions", name: "Decisions", source_query: "What was decided?" }],
  directives: [{ name: "Cite sources", content: "Name the document each fact comes from." }],
};
const V2 = {
  ...V1,
  bank: { retain_mission: "Keep decisions, their reasons and who made them.", disposition_skepticism: 3 },
  directives: [...V1.directives, { name: "Say when unsure", content: "Say so when a fact may be out of date." }],
};
const V3 = { ...V2, bank: { ...V2.bank, disposition_skepticism: 4 } };

/** Mia's template for the 200 banks of the grouped preview, and the banks: 200 alike and one that differs. */
const BULK = "bulk";
const BULK_BANKS = Array.from({ length: 200 }, (_, i) => `mia-bulk-${String(i + 1).padStart(3, "0")}`);
const ODD_BANK = "mia-bulk-odd";
const ALL_BANKS = [...BANKS, ...BULK_BANKS, ODD_BANK];

/**
 * Deletes those of the banks that exist, one request after another: requests sent at once leave
 * sockets idle while the server works through the others, and one the server closes for idling
 * resets the next request.
 */
async function deleteBanks(request: APIRequestContext, banks: readonly string[]) {
  const res = await request.get("/ext/svc/banks", { headers: admin });
  expect(res.status(), await res.text()).toBe(200);
  const present = new Set(((await res.json()) as { banks: { bank_id: string }[] }).banks.map((bank) => bank.bank_id));
  for (const bank of banks) if (present.has(bank)) await deleteBankIfPresent(request, bank);
}

async function keyOf(request: APIRequestContext, user: string) {
  const key = await api(request, "POST", `/ext/svc/admin/users/${user}/api-keys`, admin, { description: "rollout e2e setup" });
  return { authorization: `Bearer ${key!.token as string}` };
}

/** The viewport's picture of an open dialog at 1280 and at 390 px. */
async function overlayBoth(page: Page, name: string) {
  await overlayScreenshot(page, name);
  await page.setViewportSize(MOBILE);
  await overlayScreenshot(page, name);
  await page.setViewportSize(DESKTOP);
}

// Later specs expect an empty server (an admin's Home lists every bank): the banks and both users go.
test.afterAll(async ({ request }) => {
  test.setTimeout(180_000); // 204 banks, one at a time
  await deleteBanks(request, ALL_BANKS);
  for (const user of [MIA, BOB]) await deleteIfPresent(request, `/ext/svc/admin/users/${user}`);
});

test("setup: member mia has three banks from version 1 of her template, which now has a version 2", async ({ request }) => {
  // A clean slate: a CI retry runs the whole serial file again on the same data.
  await deleteBanks(request, ALL_BANKS);
  await createFreshUser(request, { id: MIA, display_name: "Mia", password: MIA_PASSWORD });
  await createFreshUser(request, { id: BOB, display_name: "Bob" });
  const mia = await keyOf(request, MIA);
  await api(request, "POST", "/ext/svc/me/templates", mia, { id: "notes", name: "Team notes", manifest: V1 });
  for (const bank of BANKS) await api(request, "POST", "/ext/svc/banks", mia, { bank_id: bank, template: "notes" });
  await api(request, "PATCH", "/ext/svc/me/templates/notes", mia, { manifest: V2 });
});

test("the bank page says which version it was made from and that version 2 is available", async ({ page }) => {
  await signIn(page, MIA, MIA_PASSWORD);
  await openBanks(page);
  await expect(page.getByTestId("banks-table").getByTestId("bank-behind")).toHaveCount(3);
  await openBank(page, BANKS[0]!);
  await expect(page.getByTestId("bank-provenance-line")).toContainText("personal/notes version 1");
  await expect(page.getByTestId("bank-behind")).toHaveText("Behind: version 2 available");
  await screenshotBoth(page, "lifecycle-bank-provenance");
  await page.getByTestId("bank-provenance-line").getByRole("link", { name: "personal/notes" }).click();
  await expect(page).toHaveURL(/\/templates\/personal\/notes$/);
});

test("the template rolls version 2 out to its banks: preview, one bank refused, summary, retry", async ({ page, request }) => {
  await signIn(page, MIA, MIA_PASSWORD);
  await page.goto("/templates/personal/notes");
  const section = page.getByTestId("template-banks");
  await expect(section.getByTestId("template-banks-summary")).toHaveText("3 banks last applied from personal/notes; 3 behind.");
  await section.getByRole("button", { name: "Roll out version 2 to 3 banks" }).click();

  // Every bank behind starts chosen.
  const dialog = page.getByRole("dialog", { name: "Roll out version 2 of personal/notes" });
  await expect(dialog.getByTestId("rollout-chosen-count")).toHaveText("3 of 3 selected");
  await expect(dialog.getByRole("checkbox")).toHaveCount(3);
  await dialog.getByRole("button", { name: "Preview 3 banks" }).click();

  // The three get the same changes: one group, shown once.
  const groups = dialog.getByTestId("rollout-group");
  await expect(groups).toHaveCount(1);
  await expect(groups.getByRole("heading", { level: 3 })).toHaveText("3 banks get the same 2 changes");
  await groups.getByText("Show the 3 banks").click();
  await expect(groups.getByTestId("rollout-group-banks").getByRole("listitem")).toHaveText(BANKS);
  await expect(groups.getByRole("list", { name: "Config changes" })).toContainText(
    'retain_mission: "Keep decisions and their reasons." → "Keep decisions, their reasons and who made them."',
  );
  await expect(groups.getByTestId("entry-change")).toHaveText([/created\s*Directive Say when unsure/]);
  const apply = dialog.getByRole("button", { name: "Apply to 3 banks" });
  await expect(apply).toBeEnabled();
  await overlayBoth(page, "lifecycle-rollout-preview");

  // Meanwhile the third bank is deleted and its id taken by bob: mia may not write it any more.
  const bob = await keyOf(request, BOB);
  await api(request, "DELETE", `/ext/svc/banks/${TAKEN}`, admin);
  await api(request, "POST", "/ext/svc/me/templates", bob, { id: "bobs", name: "Bob's", manifest: V1 });
  await api(request, "POST", "/ext/svc/banks", bob, { bank_id: TAKEN, template: "bobs" });

  await apply.click();
  const summary = dialog.getByTestId("rollout-summary");
  await expect(summary).toContainText("2 applied, 1 failed.");
  await expect(dialog.getByRole("progressbar")).toHaveAccessibleName("Applied 3 of 3 banks");
  // The progress is said in the dialog's text size, not in the bar.
  const progress = dialog.getByTestId("rollout-progress");
  await expect(progress).toHaveText("Applied 3 of 3 banks");
  expect(Number.parseFloat(await progress.evaluate((text) => getComputedStyle(text).fontSize))).toBeGreaterThanOrEqual(12);
  const results = dialog.getByTestId("rollout-results").getByRole("listitem");
  await expect(results).toHaveCount(3);
  await expect(results.nth(0)).toContainText("mia-notes-1applied");
  await expect(results.nth(2)).toContainText(`${TAKEN}failed`);
  await expect(results.nth(2)).toContainText(`403 Forbidden: Bank ${TAKEN} belongs to another user`);
  await overlayBoth(page, "lifecycle-rollout-summary");

  // The cause goes (bob's bank is deleted): the retry rolls out to just that bank, and makes it mia's again.
  await api(request, "DELETE", `/ext/svc/banks/${TAKEN}`, admin);
  await dialog.getByRole("button", { name: "Retry failed (1)" }).click();
  await expect(summary).toContainText("3 applied, 0 failed.");
  await expect(dialog.getByRole("progressbar")).toHaveAccessibleName("Applied 1 of 1 bank");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(section.getByTestId("template-banks-summary")).toHaveText("3 banks last applied from personal/notes; all up to date.");
  await expect(section.getByRole("button", { name: /^Roll out/ })).toHaveCount(0);
});

test("a rollout in waves: version 3 to two banks chosen by filter and checkbox, then the third", async ({ page, request }) => {
  const mia = await keyOf(request, MIA);
  await api(request, "PATCH", "/ext/svc/me/templates/notes", mia, { manifest: V3 });
  await signIn(page, MIA, MIA_PASSWORD);
  await page.goto("/templates/personal/notes");
  const section = page.getByTestId("template-banks");
  await section.getByRole("button", { name: "Roll out version 3 to 3 banks" }).click();
  const dialog = page.getByRole("dialog", { name: "Roll out version 3 of personal/notes" });
  const count = dialog.getByTestId("rollout-chosen-count");
  await expect(count).toHaveText("3 of 3 selected");

  // None, then the banks a filter finds, then one more by its checkbox.
  await dialog.getByRole("button", { name: "Select none" }).click();
  await expect(count).toHaveText("0 of 3 selected");
  await expect(dialog.getByRole("button", { name: "Preview 0 banks" })).toBeDisabled();
  await dialog.getByRole("searchbox", { name: "Filter banks" }).fill("notes-1");
  await expect(dialog.getByRole("checkbox")).toHaveCount(1);
  await dialog.getByRole("button", { name: "Select the 1 shown", exact: true }).click();
  await dialog.getByRole("searchbox", { name: "Filter banks" }).fill("");
  await dialog.getByRole("checkbox", { name: BANKS[1] }).check();
  await expect(count).toHaveText("2 of 3 selected");
  await expect(dialog.getByRole("checkbox", { name: BANKS[2] })).not.toBeChecked();
  await overlayBoth(page, "lifecycle-rollout-choose");

  await dialog.getByRole("button", { name: "Preview 2 banks" }).click();
  await expect(dialog.getByTestId("rollout-group").getByRole("heading", { level: 3 })).toHaveText("2 banks get the same 1 change");
  await dialog.getByRole("button", { name: "Apply to 2 banks" }).click();
  await expect(dialog.getByTestId("rollout-summary")).toContainText(
    "2 applied, 0 failed. 1 bank was not in this wave and is still behind.",
  );
  await expect(dialog.getByTestId("rollout-results").getByRole("listitem")).toHaveCount(2);
  // The bank left out is still behind its template; the two chosen are not.
  const behind = async (bank: string) => (await (await request.get(`/ext/svc/banks/${bank}`, { headers: mia })).json()).behind;
  expect(await Promise.all(BANKS.map(behind))).toEqual([false, false, true]);

  // The next wave offers the bank left out.
  await dialog.getByRole("button", { name: "Next wave: the other 1 bank" }).click();
  await expect(count).toHaveText("1 of 1 selected");
  await expect(dialog.getByRole("checkbox", { name: BANKS[2] })).toBeChecked();
  await dialog.getByRole("button", { name: "Preview 1 bank" }).click();
  await expect(dialog.getByTestId("rollout-group").getByRole("heading", { level: 3 })).toHaveText(`${BANKS[2]} gets 1 change`);
  await dialog.getByRole("button", { name: "Apply to 1 bank" }).click();
  await expect(dialog.getByTestId("rollout-summary")).toContainText("1 applied, 0 failed.");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(section.getByTestId("template-banks-summary")).toHaveText("3 banks last applied from personal/notes; all up to date.");
});

test("a rollback is named as one: the confirmation counts the banks, and Home, the banks and the rollout say it takes them back", async ({
  page,
}) => {
  await signIn(page, MIA, MIA_PASSWORD);
  await page.goto("/templates/personal/notes/versions");
  await page.getByRole("button", { name: "Roll back to version 1", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Roll back notes?" });
  await expect(confirm.getByTestId("rollback-banks")).toHaveText(
    "3 banks were made from this template: they keep their content until you roll the new version out to them, which takes them back to version 1's content.",
  );
  await confirm.getByRole("button", { name: "Roll back", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Rolled back to" })).toHaveText(/Rolled back to version 1; this is version 4\./);

  // Home: each bank behind says what rolling out would do.
  await page.goto("/");
  const home = page.getByTestId("home-behind");
  await expect(home.getByRole("listitem").filter({ hasText: BANKS[0]! })).toContainText(
    "personal/notes version 4 restores version 1: rolling it out takes this bank back to version 1's content",
  );

  // The banks: a rollback mark in the list, the whole story on the bank's page.
  await openBanks(page);
  await expect(page.getByTestId("banks-table").getByTestId("bank-behind")).toHaveText(Array(3).fill("Behind: rollback"));
  await openBank(page, BANKS[0]!);
  await expect(page.getByTestId("bank-behind")).toHaveText("Behind: rollback");
  await expect(page.getByTestId("bank-rollback-warning")).toHaveText(
    "Version 4 restores version 1: rolling it out takes this bank back to version 1's content.",
  );
  await screenshotBoth(page, "lifecycle-rollback-bank");

  // The template's banks, and the rollout, before and after its preview.
  await page.goto("/templates/personal/notes");
  const section = page.getByTestId("template-banks");
  const warning = "Version 4 restores version 1: rolling it out takes these banks back to version 1's content.";
  await expect(section.getByTestId("template-banks-rollback")).toHaveText(warning);
  await expect(section.getByTestId("bank-behind")).toHaveText(Array(3).fill("Behind: rollback"));
  await section.getByRole("button", { name: "Roll out version 4 to 3 banks" }).click();
  const dialog = page.getByRole("dialog", { name: "Roll out version 4 of personal/notes" });
  await expect(dialog.getByTestId("rollout-rollback-warning")).toContainText(warning);
  await dialog.getByRole("button", { name: "Preview 3 banks" }).click();
  // Back to version 1's config; the directive version 2 added stays, as an import never removes one.
  await expect(dialog.getByTestId("rollout-group").getByRole("heading", { level: 3 })).toHaveText("3 banks get the same 2 changes");
  await expect(dialog.getByTestId("rollout-rollback-warning")).toBeVisible();
  await overlayBoth(page, "lifecycle-rollback-rollout");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
});

test("200 banks with the same changes preview as one group, and a bank that differs as another", async ({ page, request }) => {
  test.slow(); // 201 banks made and previewed
  const mia = await keyOf(request, MIA);
  await api(request, "POST", "/ext/svc/me/templates", mia, { id: BULK, name: "Bulk notes", manifest: V1 });
  // The odd bank already holds "Say when unsure", worded otherwise: version 2 updates it there, creates it elsewhere.
  const odd = { ...V1, directives: [...V1.directives, { name: "Say when unsure", content: "Flag facts that may be stale." }] };
  await api(request, "POST", "/ext/svc/me/templates", mia, { id: "bulk-odd", name: "Odd notes", manifest: odd });
  await api(request, "POST", "/ext/svc/banks", mia, { bank_id: ODD_BANK, template: "bulk-odd" });
  // One rollout request makes the 200 banks (a bank it names that does not exist is created) and applies version 1 to the odd one.
  await api(request, "POST", "/ext/svc/banks/rollout", mia, { template: BULK, bank_ids: [...BULK_BANKS, ODD_BANK] });
  await api(request, "PATCH", `/ext/svc/me/templates/${BULK}`, mia, { manifest: V2 });

  await signIn(page, MIA, MIA_PASSWORD);
  await page.goto(`/templates/personal/${BULK}`);
  await page.getByTestId("template-banks").getByRole("button", { name: "Roll out version 2 to 201 banks" }).click();
  const dialog = page.getByRole("dialog", { name: `Roll out version 2 of personal/${BULK}` });
  await expect(dialog.getByTestId("rollout-chosen-count")).toHaveText("201 of 201 selected");
  await dialog.getByRole("button", { name: "Preview 201 banks" }).click();
  const groups = dialog.getByTestId("rollout-group");
  await expect(dialog.getByRole("button", { name: "Apply to 201 banks" })).toBeEnabled({ timeout: 60_000 });
  await expect(groups.getByRole("heading", { level: 3 })).toHaveText(["200 banks get the same 2 changes", `${ODD_BANK} gets 2 changes`]);
  // The 200 banks' changes are shown once; their names are one click away.
  await expect(groups.first().getByTestId("entry-change")).toHaveText([/created\s*Directive Say when unsure/]);
  await expect(groups.nth(1).getByTestId("entry-change")).toHaveText([/updated\s*Directive Say when unsure/]);
  const names = groups.first().getByTestId("rollout-group-banks");
  await expect(names.getByRole("listitem").first()).toBeHidden();
  await names.getByText("Show the 200 banks").click();
  await expect(names.getByRole("listitem")).toHaveCount(200);
  await expect(names.getByRole("listitem").first()).toHaveText(BULK_BANKS[0]!);
  await names.getByText("Show the 200 banks").click();
  await overlayBoth(page, "lifecycle-rollout-grouped");
});
