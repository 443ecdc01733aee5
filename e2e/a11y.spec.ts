import { type APIRequestContext, request as apiRequest, type Page } from "@playwright/test";
import { createFreshUser, deleteBankIfPresent, deleteIfPresent, expectOk } from "./support/api";
import { axeFindings, type CheckedView } from "./support/axe";
import { signIn } from "./support/console";
import { E2E_ADMIN_TOKEN, E2E_BASE_URL } from "./support/env";
import { DESKTOP, expect, MOBILE, test } from "./support/fixtures";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";

// Accessibility (WCAG 2.2 AA, checked by axe-core) of every console page, the sign-in page and
// the landing page, at desktop and phone widths, in the light and the dark colour scheme.
// Admin alma has something on every page: a personal source from a local marketplace with a
// template installed from it (an update waiting), a hand-made template with two versions, a
// bank made from it with a policy, a service account, a server source, and the audit entries
// all that wrote. One sign-in, one page; every view is checked and all findings reported at once.
test.describe.configure({ mode: "serial" });
// A trace of ~90 page loads is hundreds of MB and slows every step; findings name what failed.
test.use({ trace: "off" });

const ALMA = { id: "alma", password: "alma's long a11y password" };
const NOTES = "a11y-notes";
const HANDBOOK = "a11y-handbook";
const BANK = "a11y-bank";
const market = new E2eMarketplace();
let admin: APIRequestContext;
let alma: APIRequestContext;

const catalogEntry = (edition: string): CatalogEntry => ({
  id: HANDBOOK,
  name: "Accessible handbook",
  description: "How the support team answers, for the accessibility check.",
  category: "support",
  integrations: ["slack", "zendesk"],
  tags: ["support", "handbook"],
  manifest: e2eManifest({ directives: [{ name: "Edition", content: `Quote the ${edition} edition of the handbook.` }] }),
});

test.beforeAll(async () => {
  await market.start();
  market.setCatalog("a11y", [
    catalogEntry("first"),
    { ...catalogEntry("first"), id: "a11y-faq", name: "Accessible FAQ", integrations: [] },
  ]);
  admin = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  // A clean slate: a CI retry runs the whole serial file again on the same data.
  await deleteBankIfPresent(admin, BANK);
  await deleteIfPresent(admin, "/ext/svc/admin/template-sources/a11y-server");
  await createFreshUser(admin, { id: ALMA.id, display_name: "Alma", password: ALMA.password, role: "admin" });
  const key = await expectOk(await admin.post(`/ext/svc/admin/users/${ALMA.id}/api-keys`, { data: { description: "a11y setup" } }));
  alma = await apiRequest.newContext({
    baseURL: E2E_BASE_URL,
    extraHTTPHeaders: { authorization: `Bearer ${((await key.json()) as { token: string }).token}` },
  });

  await expectOk(await alma.post("/ext/svc/me/template-sources", { data: { url: market.sourceUrl("a11y"), alias: "a11y" } }));
  await expectOk(await alma.post(`/ext/svc/me/templates/${HANDBOOK}/install`, { data: { source_name: "a11y" } }));
  await expectOk(await alma.post("/ext/svc/admin/template-sources", { data: { url: market.sourceUrl("a11y"), alias: "a11y-server" } }));
  await expectOk(
    await alma.post("/ext/svc/me/templates", {
      data: {
        id: NOTES,
        name: "Accessible notes",
        description: "Notes for the accessibility check.",
        tags: ["a11y"],
        manifest: e2eManifest(),
      },
    }),
  );
  await expectOk(
    await alma.patch(`/ext/svc/me/templates/${NOTES}`, { data: { name: "Accessible notes (reviewed)", tags: ["a11y", "reviewed"] } }),
  );
  await expectOk(await alma.post("/ext/svc/banks", { data: { bank_id: BANK, name: "Accessible bank", template: NOTES } }));
  await expectOk(
    await alma.put(`/ext/svc/banks/${BANK}/policy`, {
      data: {
        document: {
          version: "2026-03-24",
          default_strategy: "balanced",
          strategy_overrides: [{ scope: "channel", value: "support", strategy: "careful" }],
          public_access: { default: { actions: ["bank:recall"], recall_budget: "low" } },
        },
      },
    }),
  );
  await expectOk(await alma.post("/ext/svc/me/service-accounts", { data: { id: "a11y-bot", display_name: "A11y bot" } }));
  // A newer edition in the marketplace: the installed template has an update to review.
  market.setCatalog("a11y", [catalogEntry("second")]);
});

// Later specs expect an empty server and their own users: remove what this one made. (Alma's
// templates and source go with her; deleting them one by one would add audit entries.)
test.afterAll(async () => {
  await alma?.delete(`/ext/svc/me/service-accounts/a11y-bot`);
  await alma?.delete(`/ext/svc/banks/${BANK}`);
  await admin?.delete("/ext/svc/admin/template-sources/a11y-server");
  await admin?.delete(`/ext/svc/admin/users/${ALMA.id}`);
  await Promise.all([admin?.dispose(), alma?.dispose(), market.stop()]);
});

/** Every console page, as a path and its h1 (a pattern where the page names its subject). */
const CONSOLE_PAGES: { path: string; heading: string | RegExp }[] = [
  { path: "/sources", heading: "Template sources" },
  { path: "/marketplace", heading: "Marketplace" },
  { path: "/templates", heading: "Templates" },
  { path: "/templates?scope=server", heading: "Templates" },
  { path: "/templates/new", heading: /new template/i },
  { path: `/templates/personal/${NOTES}`, heading: /Accessible notes/ },
  { path: `/templates/personal/${HANDBOOK}`, heading: /Accessible handbook/ },
  { path: `/templates/personal/${HANDBOOK}/update`, heading: /update/i },
  { path: `/templates/personal/${NOTES}/versions`, heading: `Versions of ${NOTES}` },
  { path: "/banks", heading: "Banks" },
  { path: "/banks/new", heading: "New bank" },
  { path: `/banks/${BANK}`, heading: "Accessible bank" },
  { path: `/banks/${BANK}/policy`, heading: "Bank policy" },
  { path: "/account", heading: "Account" },
  { path: "/admin/users", heading: "Users" },
  { path: "/admin/sources", heading: "Server sources" },
  { path: "/admin/audit", heading: "Audit log" },
  { path: "/api-reference", heading: "API reference" },
];
const SIGNED_OUT_PAGES: { path: string; heading: string | RegExp }[] = [
  { path: "/signin", heading: "Sign in" },
  { path: "/", heading: "Bank Templates Console" },
];
const SCHEMES = ["light", "dark"] as const;
const SIZES = [DESKTOP, MOBILE];

/** Opens a page and waits until it shows its content: its h1, no loaders, no requests going. */
async function open(page: Page, path: string, heading: string | RegExp, scheme: "light" | "dark") {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", scheme);
  await settle(page);
  if (path === "/api-reference") await expect(page.locator(".swagger-ui .opblock").first()).toBeVisible();
}

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await expect(page.locator(".mantine-Loader-root:visible")).toHaveCount(0);
  // Mantine's transitions (a fading alert, a collapsing panel) end before colours are measured.
  await page.waitForTimeout(250);
}

/** Fails the test (softly, so every view still gets checked) when a view has findings. */
function report(findings: string[]) {
  expect.soft(findings, `accessibility findings:\n${findings.join("\n")}`).toEqual([]);
}

/** Every page × width × scheme, checked by axe; `extra` checks more states at each width and scheme. */
async function checkAll(page: Page, pages: { path: string; heading: string | RegExp }[], extra?: (view: CheckedView) => Promise<string[]>) {
  for (const scheme of SCHEMES) {
    // The console follows the system's scheme until someone picks one (defaultColorScheme "auto").
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const { path, heading } of pages) {
        await open(page, path, heading, scheme);
        report(await axeFindings(page, { path, width: size.width, scheme }));
      }
      if (extra) report(await extra({ path: "", width: size.width, scheme }));
    }
  }
}

test("the sign-in and landing pages pass axe at both widths in both schemes", async ({ page }) => {
  await checkAll(page, SIGNED_OUT_PAGES);
});

/** The console's dialogs, open, checked inside their overlay: forms with refused fields showing, and the discard question. */
async function checkDialogs(page: Page, view: CheckedView): Promise<string[]> {
  const found: string[] = [];
  const check = async (path: string, state: string) => found.push(...(await axeFindings(page, { ...view, path, state })));

  await open(page, "/admin/users", "Users", view.scheme);
  await page.getByRole("button", { name: "New user" }).click();
  const newUser = page.getByRole("dialog", { name: "New user", exact: true });
  await newUser.getByLabel("User name").fill("Not A Name");
  await newUser.getByLabel("Email").fill("not-an-email");
  await newUser.getByRole("button", { name: "Create user" }).click();
  await expect(newUser.getByLabel("User name")).toHaveAttribute("aria-invalid", "true");
  await settle(page);
  await check("/admin/users", "New user dialog, fields refused");
  // What was typed would be lost: closing asks first.
  await newUser.getByRole("button", { name: "Cancel" }).click();
  const discard = page.getByRole("dialog", { name: "Discard changes?" });
  await expect(discard).toBeVisible();
  await settle(page);
  await check("/admin/users", "Discard changes? dialog");
  await discard.getByRole("button", { name: "Discard" }).click();
  await expect(newUser).toBeHidden();

  await open(page, "/sources", "Template sources", view.scheme);
  await page.getByRole("button", { name: "Add source" }).click();
  await expect(page.getByRole("dialog", { name: "Add a personal source", exact: true })).toBeVisible();
  await settle(page);
  await check("/sources", "Add source dialog");

  await open(page, "/account", "Account", view.scheme);
  await page.getByRole("button", { name: "Create API key" }).first().click();
  await expect(page.getByRole("dialog", { name: /^New API key/ })).toBeVisible();
  await settle(page);
  await check("/account", "New API key dialog");
  return found;
}

test("every console page and its dialogs pass axe at both widths in both schemes", async ({ page, watch }) => {
  // The refused new user, on purpose.
  watch.expectError(/→ 422|status of 422/);
  // About 4 minutes on an idle machine; the API reference is the slowest page to check.
  test.setTimeout(12 * 60_000);
  // Signs in once the form is interactive (its submit handler attached).
  await page.goto("/signin");
  await settle(page);
  await signIn(page, ALMA.id, ALMA.password);
  await checkAll(page, CONSOLE_PAGES, async (view) => {
    const dialogs = await checkDialogs(page, view);
    // The navigation drawer of narrow screens, open.
    if (view.width !== MOBILE.width) return dialogs;
    await open(page, "/sources", "Template sources", view.scheme);
    await page.getByRole("button", { name: "Open navigation" }).click();
    await expect(page.getByRole("navigation", { name: "Console" })).toBeInViewport();
    await settle(page);
    const found = await axeFindings(page, { ...view, path: "/sources", state: "navigation open" });
    await page.getByRole("button", { name: "Close navigation" }).click();
    await expectPhoneLayout(page, view.scheme);
    return [...dialogs, ...found];
  });
});

/** At 390 px: the versions table fits without sideways scrolling; bank config keys wrap between words only. */
async function expectPhoneLayout(page: Page, scheme: "light" | "dark") {
  await open(page, `/templates/personal/${NOTES}/versions`, `Versions of ${NOTES}`, scheme);
  const overflow = await page
    .getByTestId("versions-table")
    .evaluate((table) => table.parentElement!.scrollWidth - table.parentElement!.clientWidth);
  expect.soft(overflow, "the versions table scrolls sideways at 390 px").toBeLessThanOrEqual(0);

  await open(page, `/banks/${BANK}`, "Accessible bank", scheme);
  // "disposition_empathy" may break after its "_", so a key is at least as wide as "disposition_".
  const keyWidth = await page
    .getByTestId("bank-config")
    .getByRole("rowheader", { name: "disposition_empathy" })
    .evaluate((th) => th.clientWidth);
  expect.soft(keyWidth, "a bank config key is squeezed to a few characters a line at 390 px").toBeGreaterThanOrEqual(90);
}
