import { apiCall, createFreshUser, deleteBankIfPresent } from "./support/api";
import {
  applyTemplateWithPreview,
  createBankWithPreview,
  deleteBank,
  deletePolicy,
  expectBankDetail,
  field,
  openBank,
  openBanks,
  POLICY_REFUSED,
  showPolicyFieldError,
  writePolicyAndCheckResolve,
} from "./support/bank-steps";
import { consoleNav, pageHeading, signIn, signOut } from "./support/console";
import { E2E_ADMIN_TOKEN } from "./support/env";
import { DESKTOP, expect, MOBILE, screenshot, screenshotBoth, test } from "./support/fixtures";

// Banks as a member sees them: member nadia (made through the API with the bootstrap admin
// key) has two personal templates; she creates a bank from one with a dry-run preview,
// applies the other on top, writes the bank's policy, and deletes what she made.
test.describe.configure({ mode: "serial" });

const NADIA = "nadia";
const NADIA_PASSWORD = "nadia's long password";
const BANK = "support:eu";
const BANK_NAME = "Support EU";

const BASICS = {
  version: "1",
  bank: { retain_mission: "Keep what customers asked and how it was solved.", disposition_empathy: 4 },
  mental_models: [
    { id: "faq", name: "Frequent questions", source_query: "What do customers ask most?" },
    { id: "escalations", name: "Escalations", source_query: "Which cases were escalated?", tags: ["support"] },
  ],
  directives: [
    { name: "Be kind", content: "Thank the customer first." },
    { name: "Cite sources", content: "Link the help-centre article." },
  ],
};
const ESCALATION = {
  version: "1",
  bank: { disposition_empathy: 5, reflect_mission: "Help the escalation team decide." },
  mental_models: [
    { id: "escalations", name: "Escalations v2", source_query: "Which cases are escalated, and why?" },
    { id: "vip", name: "VIP customers", source_query: "Who are the VIP customers?" },
  ],
  directives: [
    { name: "Cite sources", content: "Link the ticket and the article." },
    { name: "Escalate early", content: "Escalate after two failed answers.", priority: 5 },
  ],
};

const admin = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

// Banks outlive their owner, and Home counts every bank an admin sees: later specs expect none.
test.afterAll(async ({ request }) => {
  for (const bank of [BANK, "nadia-private"]) await deleteBankIfPresent(request, bank);
});

test("setup: the admin makes member nadia, who has two personal templates", async ({ request }) => {
  // A clean slate: a CI retry runs the whole serial file again on the same data.
  // (Banks outlive their owner; "nadia-private" is the last test's.)
  for (const bank of [BANK, "nadia-private"]) await deleteBankIfPresent(request, bank);
  await createFreshUser(request, { id: NADIA, display_name: "Nadia", password: NADIA_PASSWORD });
  const key = await apiCall(request, "POST", `/ext/svc/admin/users/${NADIA}/api-keys`, admin, { description: "bank e2e setup" });
  const nadia = { authorization: `Bearer ${key!.token as string}` };
  await apiCall(request, "POST", "/ext/svc/me/templates", nadia, { id: "support-basics", name: "Support basics", manifest: BASICS });
  await apiCall(request, "POST", "/ext/svc/me/templates", nadia, {
    id: "support-escalation",
    name: "Support escalation",
    manifest: ESCALATION,
  });
});

test("nadia creates a bank with a dry-run preview, then applies a second template and sees the merged state", async ({ page, watch }) => {
  await signIn(page, NADIA, NADIA_PASSWORD);
  await openBanks(page);
  await expect(page.getByText("No banks yet")).toBeVisible();
  await expect(page.getByRole("link", { name: "Create a bank" })).toBeVisible();
  await screenshotBoth(page, "banks-empty");

  // The template picker offers her templates; a ref that names no template is a 404 at the field.
  await page.getByRole("link", { name: "New bank", exact: true }).click();
  const form = page.getByRole("form", { name: "New bank" });
  const template = field(form, "Template");
  await template.click();
  await expect(page.getByRole("option", { name: /personal\/support-basics/ })).toBeVisible();
  await expect(page.getByRole("option", { name: /personal\/support-escalation/ })).toBeVisible();
  await screenshot(page, "banks-new-picker");
  await page.getByRole("option", { name: /personal\/support-basics/ }).click();
  await expect(template).toHaveValue("personal/support-basics");

  watch.expectError(/\/ext\/svc\/banks\?dry_run=true → (404|422)|status of (404|422) \([^)]*\) \(\S+\/ext\/svc\/banks\?dry_run=true\)/);
  await form.getByRole("textbox", { name: "Bank id" }).fill("no spaces allowed");
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(form.getByRole("textbox", { name: "Bank id" })).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("must be 1-128 characters of A-Z")).toBeVisible();
  await form.getByRole("textbox", { name: "Bank id" }).fill(BANK);
  await template.fill("server/nothing-here");
  await page.keyboard.press("Escape");
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(template).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("No template server/nothing-here is available to you.")).toBeVisible();
  await screenshot(page, "banks-new-error");
  await expect(page.getByTestId("import-preview")).toHaveCount(0);
  // Leaving the form with what was typed in it asks first.
  await consoleNav(page).getByRole("link", { name: "Banks", exact: true }).click();
  await page.getByRole("dialog", { name: "Discard changes?" }).getByRole("button", { name: "Discard" }).click();

  await createBankWithPreview(page, {
    bankId: BANK,
    name: BANK_NAME,
    template: "support-basics",
    expected: { configApplied: true, mentalModelsCreated: ["faq", "escalations"], directivesCreated: ["Be kind", "Cite sources"] },
    beforeApply: () => screenshotBoth(page, "banks-new-preview"),
  });
  await expectBankDetail(page, BANK, {
    name: BANK_NAME,
    owner: NADIA,
    template: "personal/support-basics",
    config: { retain_mission: "Keep what customers asked and how it was solved.", disposition_empathy: "4" },
    mentalModels: [
      { id: "faq", name: "Frequent questions" },
      { id: "escalations", name: "Escalations" },
    ],
    directives: [
      { name: "Be kind", content: "Thank the customer first." },
      { name: "Cite sources", content: "Link the help-centre article." },
    ],
  });

  await applyTemplateWithPreview(page, BANK, {
    template: "personal/support-escalation",
    expected: {
      configApplied: true,
      mentalModelsCreated: ["vip"],
      mentalModelsUpdated: ["escalations"],
      directivesCreated: ["Escalate early"],
      directivesUpdated: ["Cite sources"],
    },
    beforeApply: () => screenshot(page, "bank-apply-preview"),
  });
  await expectBankDetail(page, BANK, {
    name: BANK_NAME,
    owner: NADIA,
    template: "personal/support-escalation",
    config: {
      retain_mission: "Keep what customers asked and how it was solved.",
      disposition_empathy: "5",
      reflect_mission: "Help the escalation team decide.",
    },
    mentalModels: [
      { id: "faq", name: "Frequent questions" },
      { id: "escalations", name: "Escalations v2" },
      { id: "vip", name: "VIP customers" },
    ],
    directives: [
      { name: "Be kind", content: "Thank the customer first." },
      { name: "Cite sources", content: "Link the ticket and the article." },
      { name: "Escalate early", content: "Escalate after two failed answers." },
    ],
  });
  // A mental model opens to show its fields.
  await page.getByTestId("bank-mental-models").getByRole("button").filter({ hasText: "vip" }).click();
  await expect(page.getByText("Who are the VIP customers?")).toBeVisible();
  await screenshotBoth(page, "bank-detail");

  await openBanks(page);
  const row = page.getByTestId("banks-table").getByRole("row").filter({ hasText: BANK_NAME });
  await expect(row).toContainText(BANK);
  await expect(row).toContainText("personal/support-escalation");
  await expect(row).toContainText(NADIA);
  await expect(page.getByRole("columnheader", { name: "Last applied template" })).toBeVisible();
  await screenshotBoth(page, "banks-list");
});

test("nadia writes the bank's policy in the form, sees the JSON follow, a 422 at its field, and the resolve preview change", async ({
  page,
  watch,
}) => {
  watch.expectError(POLICY_REFUSED);
  await signIn(page, NADIA, NADIA_PASSWORD);
  await openBank(page, BANK, BANK_NAME);
  await writePolicyAndCheckResolve(page, BANK, { beforeSave: () => screenshot(page, "bank-policy-json-error") });
  await screenshotBoth(page, "bank-policy");

  await showPolicyFieldError(page, { beforeFix: () => screenshot(page, "bank-policy-422") });

  // The dark theme, for the editor.
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  await screenshot(page, "bank-policy-dark");
  await page.getByRole("button", { name: "Switch to light theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
});

test("on a phone the bank pages fit the screen", async ({ page }) => {
  await page.setViewportSize(MOBILE);
  await signIn(page, NADIA, NADIA_PASSWORD);
  await page.goto(`/banks/${encodeURIComponent(BANK)}`);
  await expect(pageHeading(page, BANK_NAME)).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "the bank page scrolls sideways").toBeLessThanOrEqual(0);
  await page.goto(`/banks/${encodeURIComponent(BANK)}/policy`);
  await expect(pageHeading(page, "Bank policy")).toBeVisible();
  await expect(page.getByTestId("resolve-preview")).toBeVisible();
  const policyOverflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(policyOverflow, "the policy page scrolls sideways").toBeLessThanOrEqual(0);
  await page.setViewportSize(DESKTOP);
});

test("nadia deletes the policy, then the bank", async ({ page }) => {
  await signIn(page, NADIA, NADIA_PASSWORD);
  await openBank(page, BANK, BANK_NAME);
  await deletePolicy(page, BANK);
  await deleteBank(page, BANK, BANK_NAME);
  await expect(page.getByText("No banks yet")).toBeVisible();
  await signOut(page);
});

test("another member neither sees nadia's banks nor may manage their policy", async ({ page, request, watch }) => {
  // Nadia's bank is gone; make one through the API to check what erin sees.
  const key = await apiCall(request, "POST", `/ext/svc/admin/users/${NADIA}/api-keys`, admin, { description: "bank e2e check" });
  const nadia = { authorization: `Bearer ${key!.token as string}` };
  await apiCall(request, "POST", "/ext/svc/banks", nadia, { bank_id: "nadia-private", template: "support-basics" });
  await createFreshUser(request, { id: "erin", password: "erin's long password" });
  const erinKey = await apiCall(request, "POST", "/ext/svc/admin/users/erin/api-keys", admin, { description: "bank e2e check" });
  const erin = { authorization: `Bearer ${erinKey!.token as string}` };
  await apiCall(request, "POST", "/ext/svc/me/templates", erin, { id: "erin-basics", name: "Erin basics", manifest: BASICS });

  watch.expectError(
    /\/ext\/svc\/banks\/nadia-private(\/policy)? → (403|404)|status of (403|404) \([^)]*\) \(\S+\/ext\/svc\/banks\/nadia-private(\/policy)?\)/,
  );
  await signIn(page, "erin", "erin's long password");
  await openBanks(page);
  await expect(page.getByText("No banks yet")).toBeVisible();
  await page.goto("/banks/nadia-private");
  await expect(pageHeading(page, "Bank not found")).toBeVisible();
  await expect(page.getByText("No bank nadia-private is visible to you")).toBeVisible();
  await screenshot(page, "bank-not-found");
  await page.goto("/banks/nadia-private/policy");
  await expect(page.getByText("You may not manage this bank's policy")).toBeVisible();
  await screenshot(page, "bank-policy-forbidden");
  await expect(consoleNav(page).getByRole("link", { name: "Users", exact: true })).toHaveCount(0);

  // Applying her template to nadia's bank id is refused (403), and the page says so.
  watch.expectError(/\/ext\/svc\/banks\?dry_run=true → 403|status of 403 \([^)]*\) \(\S+\/ext\/svc\/banks\?dry_run=true\)/);
  await page.goto("/banks/new");
  const form = page.getByRole("form", { name: "New bank" });
  await form.getByRole("textbox", { name: "Bank id" }).fill("nadia-private");
  await field(form, "Template").fill("personal/erin-basics");
  await page.keyboard.press("Escape");
  await form.getByRole("button", { name: "Preview" }).click();
  const refusal = form.getByRole("alert").filter({ hasText: "Not allowed" });
  await expect(refusal).toContainText("nadia-private");
  await expect(page.getByTestId("import-preview")).toHaveCount(0);
  await screenshot(page, "banks-new-forbidden");

  await apiCall(request, "DELETE", "/ext/svc/banks/nadia-private", admin);
  await apiCall(request, "DELETE", "/ext/svc/admin/users/erin", admin);
  await apiCall(request, "DELETE", `/ext/svc/admin/users/${NADIA}`, admin);
});
