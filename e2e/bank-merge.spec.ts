import type { APIRequestContext, Page } from "@playwright/test";
import { ADMIN_HEADERS as admin, apiCall as api, createFreshUser, deleteBankIfPresent, deleteIfPresent } from "./support/api";
import { signIn } from "./support/console";
import { DESKTOP, expect, MOBILE, overlayScreenshot, screenshotBoth, test } from "./support/fixtures";
import { sidewaysProblems } from "./support/sideways";

// Issue 36 items 4 and 3 in the console (CONTRACT §21): member lena edits a directive of one of her
// banks in place and sees it marked as changed here; her template gets a version 2; she rolls it out
// with merge: that bank keeps her edit and takes the template's other changes, and her other bank,
// whose edit the template changed too, has a conflict she resolves by taking the template's side.
// Then, from the first bank's History, she restores it to what version 1 wrote, its diff seen first.

const LENA = "merge-lena";
const LENA_PASSWORD = "lena's long merge password";
const EDITED = "merge-desk-a";
const CONFLICTING = "merge-desk-b";

const V1 = {
  version: "1",
  bank: { retain_mission: "Keep every request." },
  mental_models: [{ id: "faq", name: "FAQ", source_query: "What do people ask?" }],
  directives: [
    { name: "Be kind", content: "Answer kindly.", priority: 1 },
    { name: "Cite", content: "Cite the source." },
  ],
};
/** Version 2: a priority, a directive's text and a config field changed. */
const V2 = {
  ...V1,
  bank: { retain_mission: "Keep every request and its answer." },
  directives: [
    { name: "Be kind", content: "Answer kindly.", priority: 2 },
    { name: "Cite", content: "Cite every source." },
  ],
};
const MY_WORDS = "Answer kindly and briefly.";

type BankAnswer = { directives: { name: string; content: string; priority?: number }[]; locally_modified: boolean };

async function bankOf(request: APIRequestContext, headers: Record<string, string>, bankId: string): Promise<BankAnswer> {
  const res = await request.get(`/ext/svc/banks/${encodeURIComponent(bankId)}`, { headers });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as BankAnswer;
}

const directive = (bank: BankAnswer, name: string) => bank.directives.find((d) => d.name === name);

/** The viewport's picture of an open dialog at 1280 and at 390 px, with nothing sticking out sideways at 390. */
async function overlayBoth(page: Page, name: string) {
  await overlayScreenshot(page, name);
  await page.setViewportSize(MOBILE);
  // Measured once the page has laid itself out again at the new width.
  await expect.poll(() => sidewaysProblems(page)).toEqual([]);
  await overlayScreenshot(page, name);
  await page.setViewportSize(DESKTOP);
}

// Later specs expect no banks and no users of this one (Home counts what is left).
test.afterAll(async ({ request }) => {
  for (const bank of [EDITED, CONFLICTING]) await deleteBankIfPresent(request, bank);
  await deleteIfPresent(request, `/ext/svc/admin/users/${LENA}`);
});

test("a bank's own edit kept through a merged rollout, a conflict resolved per path, and a restore from History", async ({
  page,
  request,
}) => {
  for (const bank of [EDITED, CONFLICTING]) await deleteBankIfPresent(request, bank);
  await createFreshUser(request, { id: LENA, display_name: "Lena", password: LENA_PASSWORD });
  const key = await api(request, "POST", `/ext/svc/admin/users/${LENA}/api-keys`, admin, { description: "bank merge e2e setup" });
  const lena = { authorization: `Bearer ${key!.token as string}` };
  await api(request, "POST", "/ext/svc/me/templates", lena, { id: "desk", name: "Desk", manifest: V1 });
  for (const bank of [EDITED, CONFLICTING]) await api(request, "POST", "/ext/svc/banks", lena, { bank_id: bank, template: "desk" });
  // The other bank's edit, made through the API: the template changes the same text.
  const put = await request.put(`/ext/svc/banks/${CONFLICTING}/directives/Cite`, {
    headers: lena,
    data: { content: "Cite the source, with a link." },
  });
  expect(put.status(), await put.text()).toBe(200);

  // A directive edited in place, then marked as changed here.
  await signIn(page, LENA, LENA_PASSWORD);
  await page.goto(`/banks/${EDITED}`);
  await page.getByRole("button", { name: "Edit directive Be kind" }).click();
  const edit = page.getByRole("dialog", { name: "Edit directive Be kind" });
  await edit.getByTestId("manifest-editor").fill(JSON.stringify({ content: MY_WORDS, priority: 1 }, null, 2));
  await expect(edit.getByTestId("manifest-validation")).toContainText("Valid bank-template directive");
  await edit.getByRole("button", { name: "Preview change" }).click();
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByTestId("bank-directives").getByTestId("changed-here")).toHaveCount(1);
  await expect(page.getByTestId("locally-modified")).toContainText("Changed here since version 1 of personal/desk");

  // Version 2, rolled out with merge: the preview marks both banks as edited here.
  await api(request, "PATCH", "/ext/svc/me/templates/desk", lena, { manifest: V2 });
  await page.goto("/templates/personal/desk");
  await page.getByTestId("template-banks").getByRole("button", { name: "Roll out version 2 to 2 banks" }).click();
  const dialog = page.getByRole("dialog", { name: "Roll out version 2 of personal/desk" });
  await dialog.getByRole("switch", { name: "Keep each bank's own edits (merge)" }).check();
  await dialog.getByRole("button", { name: "Preview 2 banks" }).click();
  const groups = dialog.getByTestId("rollout-group");
  await expect(groups).toHaveCount(2);
  await expect(groups.getByTestId("rollout-edited-here")).toHaveCount(2);

  // The bank whose edit the template left alone: the merge keeps it and takes the rest.
  const kept = groups.filter({ hasText: `${EDITED} gets` });
  await expect(kept.getByTestId("rollout-kept")).toContainText("Directive Be kind");
  await expect(kept.getByRole("list", { name: "Config changes" })).toContainText("retain_mission");

  // The other bank: one conflict, the template's side taken.
  const conflicted = groups.filter({ hasText: `${CONFLICTING}: 1 conflict to choose` });
  const conflict = conflicted.getByTestId("merge-conflict");
  await expect(conflict).toHaveAttribute("data-path", "manifest.directives[1].content");
  // Each side's own words are marked, and said to screen readers.
  await expect(conflict.getByTestId("conflict-local")).toContainText("[only in this bank's: , with a link]");
  await expect(conflict.getByTestId("conflict-upstream")).toContainText("only in the template's: every");
  await expect(dialog.getByTestId("rollout-unresolved")).toContainText("1 bank has conflicts not all chosen");
  await conflict.getByRole("radio", { name: "The template's" }).check();
  await expect(conflicted.getByTestId("rollout-conflicts-chosen")).toHaveText("1 of 1 conflict chosen");
  await expect(dialog.getByTestId("rollout-unresolved")).toHaveCount(0);
  await overlayBoth(page, "bank-rollout-merge-preview");

  await dialog.getByRole("button", { name: /^Apply to 2 banks/ }).click();
  await expect(dialog.getByTestId("rollout-summary")).toContainText("2 applied, 0 failed.");
  await dialog.getByRole("button", { name: "Done" }).click();

  // The API agrees: the edit kept with the template's new priority; the conflict took the template's text.
  const edited = await bankOf(request, lena, EDITED);
  expect(directive(edited, "Be kind")).toMatchObject({ content: MY_WORDS, priority: 2 });
  expect(directive(edited, "Cite")).toMatchObject({ content: "Cite every source." });
  expect(directive(await bankOf(request, lena, CONFLICTING), "Cite")).toMatchObject({ content: "Cite every source." });

  // The bank page shows the edit kept, the bank still changed here; which entry the history cannot say
  // (the rollout's entry does not hold what its merge kept), and the page says so rather than guess.
  await page.goto(`/banks/${EDITED}`);
  await expect(page.getByTestId("bank-directives")).toContainText(MY_WORDS);
  const notice = page.getByTestId("locally-modified");
  await expect(notice).toContainText("Changed here since version 2 of personal/desk");
  await expect(notice).toContainText("kept by that apply's merge");
  await screenshotBoth(page, "bank-merge-kept");

  // History: the apply of version 1 restored, its diff seen first.
  const rows = page
    .getByTestId("bank-history")
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader") });
  await expect(rows).toHaveCount(3); // the rollout, the edit, the first apply
  await rows.last().getByRole("button", { name: "Restore this" }).click();
  const restore = page.getByRole("dialog", { name: "Restore the bank's content" });
  const diff = restore.getByTestId("bank-restore-preview").getByTestId("manifest-diff");
  await expect(diff).toContainText('"content": "Answer kindly."');
  await expect(diff).toContainText(`"content": "${MY_WORDS}"`);
  await overlayBoth(page, "bank-restore-preview");
  await restore.getByRole("button", { name: "Restore", exact: true }).click();
  await expect(restore).toBeHidden();
  await expect(page.getByTestId("bank-history-restore")).toHaveCount(1);
  await expect(page.getByTestId("bank-directives")).not.toContainText(MY_WORDS);
  const restored = await bankOf(request, lena, EDITED);
  expect(directive(restored, "Be kind")).toMatchObject({ content: "Answer kindly.", priority: 1 });
  expect(directive(restored, "Cite")).toMatchObject({ content: "Cite the source." });
});
