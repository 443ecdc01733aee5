import { ADMIN_HEADERS as admin, apiCall as api, createFreshUser, deleteBankIfPresent } from "./support/api";
import { openBank } from "./support/bank-steps";
import { signIn } from "./support/console";
import { expect, overlayScreenshot, screenshotBoth, test } from "./support/fixtures";

// Issue 36 item 4: a bank edited in place from its page (CONTRACT §21). Member ines owns a bank
// made from her template; she edits a directive, removes a mental model and tunes a config field,
// each after a preview of the change, and the bank says it was changed here since that version.

const INES = "ines";
const INES_PASSWORD = "ines's long password";
const BANK = "care:north";

const MANIFEST = {
  version: "1",
  bank: { retain_mission: "Keep every ticket.", disposition_empathy: 3 },
  mental_models: [
    { id: "customers", name: "Customers", source_query: "Who are our customers?" },
    { id: "open-issues", name: "Open issues", source_query: "What is still open?" },
  ],
  directives: [{ name: "Be kind", content: "Answer kindly.", priority: 1 }],
};

// Banks outlive their owner, and later specs expect none.
test.afterAll(async ({ request }) => {
  await deleteBankIfPresent(request, BANK);
});

// Ines's save against a bank changed meanwhile: refused (412), then shown as a conflict.
const PRECONDITION_FAILED = /PUT \S+\/mental-models\/customers → 412|status of 412/;

test("a bank edited in place: a directive, a mental model removed, a config field; marked as changed here", async ({
  page,
  request,
  watch,
}) => {
  await deleteBankIfPresent(request, BANK);
  await createFreshUser(request, { id: INES, display_name: "Ines", password: INES_PASSWORD });
  const key = await api(request, "POST", `/ext/svc/admin/users/${INES}/api-keys`, admin, { description: "bank edit e2e setup" });
  const ines = { authorization: `Bearer ${key!.token as string}` };
  await api(request, "POST", "/ext/svc/me/templates", ines, { id: "care", name: "Care", manifest: MANIFEST });
  await api(request, "POST", "/ext/svc/banks", ines, { bank_id: BANK, template: "care" });

  await signIn(page, INES, INES_PASSWORD);
  await openBank(page, BANK);
  await expect(page.getByTestId("locally-modified")).toHaveCount(0);

  // A directive: its JSON, checked, then the change as a diff before it is saved.
  await page.getByRole("button", { name: "Edit directive Be kind" }).click();
  let dialog = page.getByRole("dialog", { name: "Edit directive Be kind" });
  const editor = dialog.getByTestId("manifest-editor");
  await editor.fill(JSON.stringify({ content: "Answer kindly and briefly.", priority: "high" }, null, 2));
  await expect(dialog.getByTestId("manifest-errors")).toContainText("priority");
  await dialog.getByRole("button", { name: "Preview change" }).click();
  await expect(dialog.getByTestId("bank-edit-preview")).toHaveCount(0);
  await editor.fill(JSON.stringify({ content: "Answer kindly and briefly.", priority: 2 }, null, 2));
  await expect(dialog.getByTestId("manifest-validation")).toContainText("Valid bank-template directive");
  await dialog.getByRole("button", { name: "Preview change" }).click();
  const preview = dialog.getByTestId("bank-edit-preview");
  await expect(preview.getByTestId("manifest-diff")).toContainText('"content": "Answer kindly and briefly."');
  await expect(preview.getByTestId("manifest-diff")).toContainText('"content": "Answer kindly."');
  await overlayScreenshot(page, "bank-edit-directive-preview");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();

  const directives = page.getByTestId("bank-directives");
  await expect(directives).toContainText("Answer kindly and briefly.");
  await expect(directives.getByTestId("changed-here")).toHaveCount(1);
  const notice = page.getByTestId("locally-modified");
  await expect(notice).toContainText("Changed here since version 1 of personal/care");

  // A mental model changed here while someone else changed it too: their change and mine, merged.
  watch.expectError(PRECONDITION_FAILED);
  await page
    .getByTestId("bank-mental-models")
    .getByRole("button", { name: /Customers/ })
    .click();
  await page.getByRole("button", { name: "Edit mental model customers" }).click();
  dialog = page.getByRole("dialog", { name: "Edit mental model customers" });
  await dialog
    .getByTestId("manifest-editor")
    .fill(JSON.stringify({ name: "Customers", source_query: "Who are our customers, by region?" }));
  await expect(dialog.getByTestId("manifest-validation")).toContainText("Valid bank-template mental model");
  await dialog.getByRole("button", { name: "Preview change" }).click();
  await expect(dialog.getByTestId("bank-edit-preview")).toBeVisible();
  const path = `/ext/svc/banks/${encodeURIComponent(BANK)}/mental-models/customers`;
  expect(
    (await request.put(path, { headers: ines, data: { name: "Our customers", source_query: "Who are our customers?" } })).status(),
  ).toBe(200);
  await dialog.getByRole("button", { name: "Save" }).click();
  const conflict = dialog.getByTestId("edit-conflict");
  await expect(conflict).toContainText(`${INES} changed it`);
  await expect(conflict.getByTestId("manifest-diff")).toContainText('"name": "Our customers"');
  await conflict.getByRole("button", { name: "Merge my changes onto theirs" }).click();
  await expect(conflict).toBeHidden();
  await expect(dialog.getByTestId("bank-edit-preview").getByTestId("manifest-diff")).toContainText('"name": "Our customers"');
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("bank-mental-models")).toContainText("Who are our customers, by region?");
  await expect(page.getByTestId("bank-mental-models").getByRole("button", { name: /Our customers/ })).toBeVisible();

  // A mental model removed, after seeing what goes.
  await page
    .getByTestId("bank-mental-models")
    .getByRole("button", { name: /Open issues/ })
    .click();
  await page.getByRole("button", { name: "Remove mental model open-issues" }).click();
  dialog = page.getByRole("dialog", { name: "Remove mental model open-issues?" });
  await expect(dialog.getByTestId("manifest-diff")).toContainText('"source_query": "What is still open?"');
  await dialog.getByRole("button", { name: "Remove mental model" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("bank-mental-models")).not.toContainText("Open issues");
  await expect(page.getByRole("region", { name: "Mental models" }).getByRole("heading")).toContainText("(1)");

  // A config field, in the form; the JSON holds the fields the form does not.
  await page.getByRole("button", { name: "Edit config" }).click();
  dialog = page.getByRole("dialog", { name: `Edit the config of ${BANK}` });
  await dialog.getByRole("textbox", { name: "Retain mission" }).fill("Keep every ticket and its outcome.");
  await dialog.getByRole("combobox", { name: "Disposition: empathy" }).click();
  await page.getByRole("option", { name: "5" }).click();
  await expect(dialog.getByTestId("manifest-validation")).toContainText("Valid bank-template config");
  await dialog.getByRole("button", { name: "Preview change" }).click();
  await expect(dialog.getByTestId("manifest-diff")).toContainText('"disposition_empathy": 5');
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  const config = page.getByTestId("bank-config");
  await expect(config).toContainText("Keep every ticket and its outcome.");
  await expect(config.getByTestId("changed-here")).toHaveCount(2);

  // What changed against what the template wrote, and each edit in the history with its diff.
  await notice.getByRole("button", { name: "Show what changed" }).click();
  const diff = notice.getByTestId("manifest-diff");
  await expect(diff).toContainText('"content": "Answer kindly and briefly."');
  await expect(diff).toContainText('"id": "open-issues"');
  const edits = page.getByTestId("bank-history-edit");
  await expect(edits).toHaveCount(5);
  await expect(edits.first()).toContainText("config: retain_mission, disposition_empathy");
  await expect(edits.nth(1)).toContainText("mental model open-issues removed");
  await expect(edits.nth(2)).toContainText("mental model customers replaced");
  await expect(edits.nth(4)).toContainText("directive Be kind replaced");
  await edits.nth(4).getByRole("button", { name: "Show the change" }).click();
  await expect(edits.nth(4).getByTestId("manifest-diff")).toContainText('"priority": 2');
  await notice.scrollIntoViewIfNeeded();
  await screenshotBoth(page, "bank-edited-here");

  // The API agrees: the bank knows its own edits.
  const bank = await request.get(`/ext/svc/banks/${encodeURIComponent(BANK)}`, { headers: ines });
  expect(((await bank.json()) as { locally_modified: boolean }).locally_modified).toBe(true);
});
