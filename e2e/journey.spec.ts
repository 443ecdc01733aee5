import { createMember } from "./support/admin-steps";
import { deleteBankIfPresent, deleteIfPresent } from "./support/api";
import {
  createBankWithPreview,
  deleteBank,
  deletePolicy,
  expectBankDetail,
  openBank,
  writePolicyAndCheckResolve,
} from "./support/bank-steps";
import { consoleNav, pageHeading, signIn, signOut } from "./support/console";
import { E2E_ADMIN_PASSWORD } from "./support/env";
import { expect, screenshot, test } from "./support/fixtures";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";
import {
  addSource,
  catalogCard,
  checkAllForUpdates,
  deleteTemplate,
  editTemplate,
  expectUpdateBadge,
  installFromMarketplace,
  openCatalog,
  openTemplates,
  removeSource,
  reviewDiffAndUpdate,
  templateRow,
} from "./support/template-steps";

// The whole story of the issue in one serial flow, in one fresh browser context: the admin
// makes member carol; carol adds a source served by a marketplace this test runs, installs
// and edits a template, updates it after the catalog changes, makes a bank from it with a
// dry-run preview, writes its policy, deletes everything she made and signs out.

const CAROL = { id: "carol", displayName: "Carol Journey", email: "carol.journey@example.org", password: "carol's long journey password" };
const SOURCE = "journey-market";
const TEMPLATE = "helpdesk";
const BANK = "helpdesk-eu";
const BANK_NAME = "Helpdesk EU";

const market = new E2eMarketplace();
const helpdesk = (overrides: Partial<CatalogEntry> = {}): CatalogEntry => ({
  id: TEMPLATE,
  name: "Helpdesk assistant",
  description: "Remembers customer issues and their fixes.",
  category: "support",
  integrations: ["zendesk"],
  tags: ["starter"],
  manifest: e2eManifest(),
  ...overrides,
});
const updatedManifest = e2eManifest({
  directives: [
    { name: "Be kind", content: "Answer customers warmly and plainly." },
    { name: "Cite tickets", content: "Name the ticket each fact comes from." },
    { name: "Escalate", content: "Hand angry customers to a person." },
  ],
});

test.beforeAll(async ({ request }) => {
  // A clean slate: a CI retry runs the test again on the same data. The admin makes carol in
  // the console (her source and template go with her); her bank and its policy outlive her.
  await deleteIfPresent(request, `/ext/svc/admin/users/${CAROL.id}`);
  await deleteBankIfPresent(request, BANK);
  await market.start();
  market.setCatalog("journey", [
    helpdesk(),
    {
      id: "meeting-notes",
      name: "Meeting notes",
      description: "Decisions and owners.",
      category: "notes",
      tags: [],
      manifest: e2eManifest(),
    },
  ]);
});

test.afterAll(() => market.stop());

test("the journey: admin makes carol; carol installs, edits and updates a template, makes a bank and its policy, cleans up and signs out", async ({
  page,
}) => {
  test.setTimeout(300_000);

  await test.step("the admin signs in and creates member carol with a password", async () => {
    await page.goto("/signin");
    await signIn(page, "admin", E2E_ADMIN_PASSWORD);
    await expect(consoleNav(page).getByRole("link", { name: "Users", exact: true })).toBeVisible();
    await createMember(page, CAROL);
    await signOut(page);
    await expect(pageHeading(page, "Sign in")).toBeVisible();
  });

  await test.step("carol signs in and sees a member's console", async () => {
    await signIn(page, CAROL.id, CAROL.password);
    await expect(page.getByRole("button", { name: `Account menu for ${CAROL.displayName}` })).toBeVisible();
    await expect(consoleNav(page).getByRole("link", { name: "Users", exact: true })).toHaveCount(0);
    await expect(consoleNav(page).getByRole("link", { name: "Server sources", exact: true })).toHaveCount(0);
  });

  await test.step("carol adds a source served by the test's marketplace and browses it", async () => {
    await addSource(page, { url: market.sourceUrl("journey"), alias: SOURCE });
    const panel = await openCatalog(page, SOURCE);
    await expect(page.getByRole("tab", { name: SOURCE })).toContainText("personal");
    await expect(panel.getByTestId("catalog-count")).toHaveText("2 templates");
    const card = catalogCard(panel, TEMPLATE);
    await expect(card.getByRole("heading", { name: "Helpdesk assistant" })).toBeVisible();
    await expect(card).toContainText("Remembers customer issues and their fixes.");
    await expect(card.getByText("Integration: zendesk", { exact: true })).toBeVisible();
    await panel.getByRole("searchbox", { name: "Search" }).fill("decisions");
    await expect(panel.getByTestId("catalog-count")).toHaveText("1 of 2 templates match");
    await expect(catalogCard(panel, "meeting-notes")).toBeVisible();
    await panel.getByRole("searchbox", { name: "Search" }).fill("");
    await expect(panel.getByTestId("catalog-count")).toHaveText("2 templates");
    await screenshot(page, "journey-marketplace");
  });

  await test.step("carol installs a template", async () => {
    await installFromMarketplace(page, { source: SOURCE, templateId: TEMPLATE });
    await openTemplates(page);
    await expect(templateRow(page, TEMPLATE)).toContainText("Helpdesk assistant");
    await expect(templateRow(page, TEMPLATE)).toContainText(SOURCE);
  });

  await test.step("carol edits its details and manifest", async () => {
    await editTemplate(page, TEMPLATE, {
      name: "Helpdesk (ours)",
      description: "Our helpdesk memory.",
      addTags: ["journey"],
      manifest: e2eManifest({
        mental_models: [
          { id: "open-tickets", name: "Open tickets", source_query: "Which customer issues are still open?" },
          { id: "known-fixes", name: "Known fixes", source_query: "Which fixes solved recurring issues?", max_tokens: 2048 },
        ],
      }),
    });
    await expect(page.getByText("Edited locally")).toBeVisible();
    await openTemplates(page);
    await expect(templateRow(page, TEMPLATE)).toContainText("Helpdesk (ours)");
    await expect(templateRow(page, TEMPLATE)).toContainText("#journey");
    await expect(templateRow(page, TEMPLATE)).toContainText("Edited locally");
  });

  await test.step("the catalog changes; Check all for updates shows the badge", async () => {
    market.setCatalog("journey", [
      helpdesk({ description: "Remembers customer issues, fixes and escalations.", manifest: updatedManifest }),
    ]);
    await checkAllForUpdates(page, 1);
    await expectUpdateBadge(page, TEMPLATE);
    await screenshot(page, "journey-templates-update");
  });

  let revision = "";
  await test.step("carol reviews the diff and updates, overwriting her edits", async () => {
    await reviewDiffAndUpdate(page, TEMPLATE, {
      force: true,
      added: ['"name": "Escalate"', "Hand angry customers to a person."],
      removed: ['"max_tokens": 2048'],
    });
    await expect(pageHeading(page, "Helpdesk assistant")).toBeVisible();
    const status = await page.getByRole("status").filter({ hasText: "now holds revision" }).locator("code").innerText();
    revision = status.trim();
    expect(revision).toMatch(/^\S{8}$/);
    await openTemplates(page);
    await expect(templateRow(page, TEMPLATE).getByText("Up to date")).toBeVisible();
  });

  await test.step("carol creates a bank from it with a dry-run preview, then applies it", async () => {
    await createBankWithPreview(page, {
      bankId: BANK,
      name: BANK_NAME,
      template: `personal/${TEMPLATE}`,
      expected: {
        configApplied: true,
        mentalModelsCreated: ["open-tickets", "known-fixes"],
        directivesCreated: ["Be kind", "Cite tickets", "Escalate"],
      },
      beforeApply: () => screenshot(page, "journey-bank-preview"),
    });
    await expectBankDetail(page, BANK, {
      name: BANK_NAME,
      owner: CAROL.id,
      template: `personal/${TEMPLATE}`,
      revision,
      config: { retain_mission: "Keep customer issues and how they were solved.", disposition_empathy: "4" },
      mentalModels: [
        { id: "open-tickets", name: "Open tickets" },
        { id: "known-fixes", name: "Known fixes" },
      ],
      directives: updatedManifest.directives as { name: string; content: string }[],
    });
    await expect(page.getByTestId("bank-has-policy")).toHaveText("None yet");
  });

  await test.step("carol writes a policy and sees the resolve preview change", async () => {
    await writePolicyAndCheckResolve(page, BANK);
    await screenshot(page, "journey-policy");
    await openBank(page, BANK, BANK_NAME);
    await expect(page.getByTestId("bank-has-policy")).toHaveText("Set");
  });

  await test.step("carol deletes what she made: policy, bank, template, source", async () => {
    await deletePolicy(page, BANK);
    await openBank(page, BANK, BANK_NAME);
    await expect(page.getByTestId("bank-has-policy")).toHaveText("None yet");
    await deleteBank(page, BANK, BANK_NAME);
    await expect(page.getByText("No banks yet")).toBeVisible();
    await deleteTemplate(page, TEMPLATE);
    await expect(page.getByText(/^No templates (of your own )?yet$/)).toBeVisible();
    await removeSource(page, SOURCE);
    await consoleNav(page).getByRole("link", { name: "Marketplace", exact: true }).click();
    await expect(pageHeading(page, "Marketplace")).toBeVisible();
    await expect(page.getByText("No sources yet")).toBeVisible();
  });

  await test.step("carol signs out and sees the sign-in page", async () => {
    await signOut(page);
    await expect(pageHeading(page, "Sign in")).toBeVisible();
    await page.goto("/templates");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Ftemplates$/);
  });
});
