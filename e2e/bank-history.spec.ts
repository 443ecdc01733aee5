import { readFileSync } from "node:fs";
import { ADMIN_HEADERS as admin, apiCall as api, createFreshUser, deleteBankIfPresent } from "./support/api";
import { applyTemplateWithPreview, field, openBank } from "./support/bank-steps";
import { signIn } from "./support/console";
import { expect, overlayScreenshot, screenshot, test } from "./support/fixtures";
import { openTemplates, templateRow } from "./support/template-steps";

// Issue 11: what a second template changes, field by field, before it is applied; the bank's
// history of imports; and a bank leaving the product as a manifest file or a template.
// Member hanna (made through the API) owns a bank made from one template, and applies another.
test.describe.configure({ mode: "serial" });

const HANNA = "hanna";
const HANNA_PASSWORD = "hanna's long password";
const BANK = "sales:emea";

const FIRST = {
  version: "1",
  bank: {
    disposition_literalism: 5,
    disposition_skepticism: 4,
    reflect_mission: "Answer support questions.",
    retain_mission: "Keep every ticket.",
  },
  mental_models: [
    { id: "accounts", name: "Accounts", source_query: "Which accounts do we serve?" },
    { id: "deals", name: "Deals", source_query: "Which deals are open?" },
  ],
  directives: [{ name: "Cite sources", content: "Name the document." }],
};
const SECOND = {
  version: "1",
  bank: {
    disposition_literalism: 3,
    disposition_skepticism: 3,
    reflect_mission: "Help the sales team.",
    retain_mission: "Keep every deal.",
  },
  mental_models: [
    { id: "accounts", name: "Accounts", source_query: "Which accounts do we serve?" },
    { id: "deals", name: "Deals and stages", source_query: "Which deals are open, at which stage?" },
  ],
  directives: [
    { name: "Cite sources", content: "Name the document." },
    { name: "Quote prices", content: "Quote list prices only." },
  ],
};

// Banks outlive their owner, and Home counts every bank an admin sees: later specs expect none.
test.afterAll(async ({ request }) => {
  await deleteBankIfPresent(request, BANK);
});

test("setup: member hanna has two templates and a bank made from the first", async ({ request }) => {
  // A clean slate: a CI retry runs the whole serial file again on the same data.
  await deleteBankIfPresent(request, BANK);
  await createFreshUser(request, { id: HANNA, display_name: "Hanna", password: HANNA_PASSWORD });
  const key = await api(request, "POST", `/ext/svc/admin/users/${HANNA}/api-keys`, admin, { description: "bank history e2e setup" });
  const hanna = { authorization: `Bearer ${key!.token as string}` };
  await api(request, "POST", "/ext/svc/me/templates", hanna, { id: "sales-first", name: "Sales first", manifest: FIRST });
  await api(request, "POST", "/ext/svc/me/templates", hanna, { id: "sales-second", name: "Sales second", manifest: SECOND });
  await api(request, "POST", "/ext/svc/banks", hanna, { bank_id: BANK, template: "sales-first" });
});

test("the preview of a second template shows each config field before and after, and the changed entries", async ({ page }) => {
  await signIn(page, HANNA, HANNA_PASSWORD);
  await openBank(page, BANK);
  await applyTemplateWithPreview(page, BANK, {
    template: "personal/sales-second",
    expected: {
      configApplied: true,
      mentalModelsUpdated: ["accounts", "deals"],
      directivesCreated: ["Quote prices"],
      directivesUpdated: ["Cite sources"],
    },
    beforeApply: async () => {
      const preview = page.getByRole("dialog").getByTestId("import-preview");
      const config = preview.getByRole("list", { name: "Config changes" }).getByRole("listitem");
      await expect(config).toHaveText([
        "disposition_literalism: 5 → 3",
        "disposition_skepticism: 4 → 3",
        'reflect_mission: "Answer support questions." → "Help the sales team."',
        'retain_mission: "Keep every ticket." → "Keep every deal."',
      ]);
      // Only what changes content: "accounts" and "Cite sources" are identical, so not listed.
      const entries = preview.getByTestId("entry-change");
      await expect(entries).toHaveText([/updated\s*Mental model deals/, /created\s*Directive Quote prices/]);
      await entries.first().locator("summary").click();
      const diff = entries.first().getByTestId("manifest-diff");
      await expect(diff).toContainText('"name": "Deals and stages"');
      await expect(diff).toContainText('"name": "Deals"');
      // The dialog scrolls: show the config changes down to the opened diff.
      await preview.getByTestId("config-changes").evaluate((list) => list.scrollIntoView({ block: "start" }));
      await overlayScreenshot(page, "bank-preview-changes");
    },
  });
  await expect(page.getByTestId("import-result").getByRole("list", { name: "Config changes" })).toContainText(
    "disposition_literalism: 5 → 3",
  );
});

test("the bank page lists its history newest first, downloads the bank and saves it as a template", async ({ page, watch }) => {
  await signIn(page, HANNA, HANNA_PASSWORD);
  await openBank(page, BANK);
  const history = page.getByTestId("bank-history");
  const rows = history.getByRole("row").filter({ has: page.getByRole("rowheader") });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("personal/sales-second");
  await expect(rows.nth(0)).toContainText(HANNA);
  await expect(rows.nth(0)).toContainText("config applied; 2 mental models updated; 1 directive created, 1 directive updated");
  await expect(rows.nth(1)).toContainText("personal/sales-first");
  await expect(rows.nth(1)).toContainText("config applied; 2 mental models created; 1 directive created");
  await screenshot(page, "bank-history");

  // Download: a file named after the bank holding its manifest.
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download", exact: true }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe("sales_emea.json");
  const exported = JSON.parse(readFileSync((await file.path())!, "utf8")) as {
    version: string;
    directives: { name: string }[];
    bank: Record<string, unknown>;
  };
  expect(exported.version).toBe("1");
  expect(exported.directives.map((d) => d.name)).toEqual(["Cite sources", "Quote prices"]);
  expect(exported.bank.disposition_literalism).toBe(3);

  // Save as template: a taken id is refused at the field (409), a free one is created.
  const save = async (id: string) => {
    await page.getByRole("button", { name: "Save as template" }).click();
    const dialog = page.getByRole("dialog", { name: `Save ${BANK} as a template` });
    await field(dialog, "Template id").fill(id);
    await dialog.getByRole("button", { name: "Save as template" }).click();
    return dialog;
  };
  watch.expectError(/\/ext\/svc\/me\/templates → 409|status of 409 \(Conflict\) \(\S+\/ext\/svc\/me\/templates\)/);
  const dialog = await save("sales-first");
  await expect(field(dialog, "Template id")).toHaveAttribute("aria-invalid", "true");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("dialog", { name: "Discard changes?" }).getByRole("button", { name: "Discard" }).click();
  await expect(dialog).toBeHidden();
  await save("sales-emea-snapshot");
  const saved = page.getByTestId("saved-template");
  await expect(saved).toContainText("personal/sales-emea-snapshot");
  await openTemplates(page);
  await expect(templateRow(page, "sales-emea-snapshot")).toBeVisible();
});
