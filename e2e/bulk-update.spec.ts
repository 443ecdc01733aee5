import { type APIRequestContext, request as apiRequest } from "@playwright/test";
import { ADMIN_HEADERS, deleteBankIfPresent, deleteIfPresent, expectOk } from "./support/api";
import { signIn } from "./support/console";
import { E2E_ADMIN_PASSWORD, E2E_BASE_URL } from "./support/env";
import { expect, screenshotBoth, test } from "./support/fixtures";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";
import { templateRow } from "./support/template-steps";

// "Update all" on server templates asks first: one line per template that would change and how,
// with its diff a click away, saying that server templates change for everybody and naming the
// banks made from them; Cancel changes nothing, "Update N server templates" updates them and skips
// the one edited here.
test.describe.configure({ mode: "serial" });

const SOURCE = "bulk-market";
const IDS = ["bulk-faq", "bulk-onboarding", "bulk-policies"];
/** Banks made from the templates: the confirmation names them. */
const BANKS = { "bulk-faq-desk": "bulk-faq", "bulk-onboarding-desk": "bulk-onboarding" };
const T = "/ext/svc/admin/templates";
const market = new E2eMarketplace();
let admin: APIRequestContext;

const entry = (id: string, edition: string, extra: Partial<CatalogEntry> = {}): CatalogEntry => ({
  id,
  name: id.replace("bulk-", "Bulk "),
  description: `The ${id} template.`,
  manifest: e2eManifest({ directives: [{ name: "Rule", content: `Edition ${edition}.` }] }),
  ...extra,
});

const revisions = async () => {
  const res = await expectOk(await admin.get(T));
  const body = (await res.json()) as { templates: { id: string; source_revision: string | null }[] };
  return Object.fromEntries(body.templates.filter((t) => IDS.includes(t.id)).map((t) => [t.id, t.source_revision]));
};

test.beforeAll(async () => {
  await market.start();
  market.setCatalog(
    SOURCE,
    IDS.map((id) => entry(id, "one")),
  );
  admin = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: ADMIN_HEADERS });
  // A clean slate: a retry runs the whole serial file again on the same data.
  for (const id of IDS) await deleteIfPresent(admin, `${T}/${id}`);
  await deleteIfPresent(admin, `/ext/svc/admin/template-sources/${SOURCE}`);
  await expectOk(await admin.post("/ext/svc/admin/template-sources", { data: { url: market.sourceUrl(SOURCE), alias: SOURCE } }));
  for (const id of IDS) await expectOk(await admin.post(`${T}/${id}/install`, { data: { source_name: SOURCE } }));
  for (const [bank, template] of Object.entries(BANKS)) {
    await deleteBankIfPresent(admin, bank);
    await expectOk(await admin.post("/ext/svc/banks", { data: { bank_id: bank, template: `server/${template}` } }));
  }
  // bulk-policies is edited here: an update would replace that edit, so it is skipped unless forced.
  await expectOk(await admin.patch(`${T}/bulk-policies`, { data: { description: "Edited by the admin." } }));
  // The marketplace publishes new editions: two with a changed directive, one with a new mental model and description too.
  market.setCatalog(SOURCE, [
    entry("bulk-faq", "two"),
    entry("bulk-onboarding", "two", {
      description: "Onboarding, now with a checklist.",
      manifest: e2eManifest({
        directives: [{ name: "Rule", content: "Edition two." }],
        mental_models: [{ id: "checklist", name: "Checklist", source_query: "What is left to onboard?" }],
      }),
    }),
    entry("bulk-policies", "two"),
  ]);
});

test.afterAll(async () => {
  for (const bank of Object.keys(BANKS)) await deleteBankIfPresent(admin, bank);
  for (const id of IDS) await admin.delete(`${T}/${id}`);
  await admin.delete(`/ext/svc/admin/template-sources/${SOURCE}`);
  await Promise.all([admin.dispose(), market.stop()]);
});

test("Update all on server templates lists the changes first; Cancel changes nothing, confirming updates", async ({ page }) => {
  const installed = await revisions();
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await page.goto("/templates?scope=server");
  await expect(templateRow(page, "bulk-faq")).toBeVisible();

  await page.getByRole("button", { name: "Update all" }).click();
  const confirm = page.getByRole("dialog", { name: "Update 3 server templates from their sources?" });
  await expect(confirm).toBeVisible();
  const line = (id: string) => confirm.getByTestId("bulk-update-line").and(confirm.locator(`[data-template="${id}"]`));
  await expect(line("bulk-faq")).toContainText(`bulk-faq: revision ${installed["bulk-faq"]!.slice(0, 8)} →`);
  await expect(line("bulk-faq")).toContainText("1 directive changed");
  await expect(line("bulk-onboarding")).toContainText("description changed; 1 mental model added, 2 removed; 1 directive changed");
  await expect(line("bulk-policies")).toContainText("Has local edits: skipped unless forced");
  await expect(confirm.getByText("2 server templates will be updated as listed here.")).toBeVisible();
  // It says the server's templates change for everybody, and names the banks made from those it updates.
  const reach = confirm.getByTestId("bulk-update-reach");
  await expect(reach).toContainText("For everybody on this server");
  await expect(reach).toContainText("the update changes them for everybody, not only for you");
  await expect(reach.getByTestId("bulk-update-banks")).toContainText(
    "2 banks were made from these templates: bulk-faq-desk (from bulk-faq), bulk-onboarding-desk (from bulk-onboarding).",
  );

  // The diff is one click away.
  await line("bulk-faq").getByRole("button", { name: "Show diff" }).click();
  const diff = line("bulk-faq").getByTestId("manifest-diff");
  await expect(diff.locator('[data-change="added"]').filter({ hasText: "Edition two." }).first()).toBeVisible();
  await expect(diff.locator('[data-change="removed"]').filter({ hasText: "Edition one." }).first()).toBeVisible();
  await line("bulk-faq").getByRole("button", { name: "Hide diff" }).click();
  await screenshotBoth(page, "lifecycle-bulk-confirm");

  // Cancel: nothing was updated.
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  expect(await revisions()).toEqual(installed);
  await expect(page.getByTestId("update-all-report")).toHaveCount(0);

  // Confirmed: the two are updated, the edited one is skipped.
  await page.getByRole("button", { name: "Update all" }).click();
  await confirm.getByRole("button", { name: "Update 2 server templates" }).click();
  await expect(confirm).toBeHidden();
  const report = page.getByTestId("update-all-report");
  await expect(report).toContainText("Update all: 2 updated, 0 already up to date, 1 skipped for local edits");
  const updated = await revisions();
  expect(updated["bulk-faq"]).not.toBe(installed["bulk-faq"]);
  expect(updated["bulk-onboarding"]).not.toBe(installed["bulk-onboarding"]);
  expect(updated["bulk-policies"]).toBe(installed["bulk-policies"]);
  await expect(templateRow(page, "bulk-faq").getByText("Up to date")).toBeVisible();
});
