import { type APIRequestContext, request as apiRequest, type Browser, type Locator, type Page } from "@playwright/test";
import { type Receiver, startReceiver } from "../tests/support/webhook-receiver";
import { ADMIN_HEADERS, createFreshUser, deleteBankIfPresent, deleteIfPresent, expectOk } from "./support/api";
import { axeFindingsInBothSchemes, settle, watchSettling } from "./support/axe";
import { pickTemplate } from "./support/bank-steps";
import { signIn } from "./support/console";
import { E2E_BASE_URL } from "./support/env";
import { test as base, DESKTOP, expect, MOBILE, screenshot } from "./support/fixtures";
import { type CatalogEntry, E2eMarketplace, e2eManifest } from "./support/marketplace";
import { consoleRoutes, sidewaysProblems } from "./support/sideways";

// Accessibility (WCAG 2.2 AA, checked by axe-core) of every console page, its states and its
// dialogs, the sign-in page and the landing page, at desktop and phone widths, in the light and
// the dark colour scheme; and that nothing on them sticks out sideways (support/sideways.ts). Admin
// alma has something in every table and every badge there is: a personal source from a local
// marketplace with two templates installed from it, one edited here (an update waiting, whose diff
// is long enough to scroll, and a merge of her edit), a personal source whose marketplace fails, a
// hand-made template with three versions (the last rewrote its manifest), a bank made from its
// second version (behind, to roll out) with a policy changed twice, another template with two
// banks of its own to roll out to, a service account with a read-only key about to expire, a
// server source with a token and a server template from it, edited, with an update waiting, a
// second console session, a webhook of hers and one of the server's whose receiver answers 500 (a
// ping each, failed), and the audit entries all that wrote. Member milo has nothing of his own: his
// pages show what a member starts from.
//
// Each test checks one page (or one step of a flow) at one width, with its states and dialogs: every
// view in the light scheme with all the rules, then the same view switched to the dark scheme with
// the colour rules (support/axe.ts). The tests are independent, so Playwright spreads them over its
// workers and a CI retry runs only the test that failed. What they need (the "world" above) is made
// once per worker through the API, afresh: a retry's new worker replaces what the failed try left.

/** `count` directives, the first naming the handbook's edition: enough of them make a diff taller than its scrolling box. */
const directives = (edition: string, count = 1) => [
  { name: "Edition", content: `Quote the ${edition} edition of the handbook.` },
  ...Array.from({ length: count - 1 }, (_, i) => ({
    name: `Chapter ${i + 1}`,
    content: `Answer from chapter ${i + 1} of the ${edition} edition.`,
  })),
];

const NOTES = "a11y-notes";
const HANDBOOK = "a11y-handbook";
const FAQ = "a11y-faq";
/** A template whose banks the rollout test rolls a new version out to (apply and summary), apart from the bank the pages show. */
const ROLLOUT = "a11y-rollout";
/** Alma's other session, in another browser: the Account page offers to sign it out. */
const OTHER_SESSION = "the session in Firefox on Windows";
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
/** The personal source alma installs from, and its catalog in the marketplace. */
const SOURCE = "a11y";

const catalogEntry = (edition: string, directiveCount = 1): CatalogEntry => ({
  id: HANDBOOK,
  name: "Accessible handbook",
  description: "How the support team answers, for the accessibility check.",
  category: "support",
  integrations: ["slack", "zendesk"],
  tags: ["support", "handbook"],
  manifest: e2eManifest({ directives: directives(edition, directiveCount) }),
});

/** The FAQ, never edited here: a new edition of it is an update that Update all applies. */
const faqEntry = (edition: string): CatalogEntry => ({ ...catalogEntry(edition), id: FAQ, name: "Accessible FAQ", integrations: [] });

/** A personal source whose marketplace answers 500: its badge, and the 502s it makes, on purpose. */
const BROKEN_SOURCE = "a11y-broken";
/** The server template, installed from the server source, edited, with an update waiting: its own per world, like the server's other things. */
const serverGuide = (slot: number) => `a11y-guide-${slot}`;
const serverGuideEntry = (id: string, edition: string): CatalogEntry => ({
  ...catalogEntry(edition),
  id,
  name: "Onboarding guide for new support engineers",
  category: "onboarding",
  tags: ["onboarding", "support-engineering", "first-week"],
});
/** The source's catalog: the handbook and the FAQ at their editions, and the server's guide at its second. */
const worldCatalog = (guide: string, handbook: CatalogEntry, faq: CatalogEntry) => [handbook, faq, serverGuideEntry(guide, "second")];

interface User {
  id: string;
  password: string;
}
type SignedIn = Awaited<ReturnType<Awaited<ReturnType<Browser["newContext"]>>["storageState"]>>;

/**
 * What the tests of one worker check. What the server holds for everyone (users, banks, the server
 * source) is named by the worker's parallel index, so two workers against one server do not meet;
 * personal templates, sources and service accounts are their owner's own. A retry runs in a new
 * worker (with a new marketplace, at a new port), which makes its world afresh.
 */
interface World {
  alma: User;
  milo: User;
  bank: string;
  rolloutBanks: [string, string];
  serverSource: string;
  serverGuide: string;
  serverWebhook: string;
  market: E2eMarketplace;
  /** Where alma's webhook and the server's are sent: it answers 500. */
  receiver: Receiver;
  /** Alma's webhook and the server's, each with a failed delivery. */
  webhooks: Record<"personal" | "server", { id: string; url: string }>;
  /** Alma's API key, for setting up through the API. */
  api: APIRequestContext;
  /** The browser sessions of alma (Chromium) and milo, as a storage state. */
  sessions: Record<"alma" | "milo", SignedIn>;
}

function worldNames(slot: number) {
  return {
    alma: { id: `alma-${slot}`, password: "alma's long a11y password" },
    milo: { id: `milo-${slot}`, password: "milo's long a11y password" },
    bank: `a11y-bank-${slot}`,
    rolloutBanks: [`a11y-rollout-${slot}-1`, `a11y-rollout-${slot}-2`] as [string, string],
    serverSource: `a11y-server-${slot}`,
    serverGuide: serverGuide(slot),
    /** The description of the server webhook: a world's own, found again by it. */
    serverWebhook: `a11y-webhook-${slot}`,
  };
}

/**
 * Removes what a world made that the server keeps for everyone: later spec files expect an empty
 * server and their own users, and a new world starts from nothing. (Alma's templates, sources and
 * service account go with her; deleting them one by one would add audit entries. Banks and their
 * policies outlive their owner.)
 */
async function removeWorld(admin: APIRequestContext, names: ReturnType<typeof worldNames>) {
  for (const bank of [names.bank, ...names.rolloutBanks]) await deleteBankIfPresent(admin, bank);
  await deleteIfPresent(admin, `/ext/svc/admin/templates/${names.serverGuide}`);
  await deleteIfPresent(admin, `/ext/svc/admin/template-sources/${names.serverSource}`);
  const serverWebhooks = (await (await expectOk(await admin.get("/ext/svc/admin/webhooks"))).json()) as WebhookRef[];
  for (const webhook of serverWebhooks.filter((w) => w.description === names.serverWebhook))
    await deleteIfPresent(admin, `/ext/svc/admin/webhooks/${webhook.id}`);
  for (const user of [names.alma.id, names.milo.id]) await deleteIfPresent(admin, `/ext/svc/admin/users/${user}`);
}

type WebhookRef = { id: string; url: string; description: string | null };

/** Adds a webhook through `path` (a scope's webhooks) and pings it once: its receiver fails it. */
async function failingWebhook(api: APIRequestContext, path: string, data: { url: string; events: string[]; description: string }) {
  const webhook = (await (await expectOk(await api.post(path, { data }))).json()) as WebhookRef;
  await expectOk(await api.post(`${path}/${webhook.id}/ping`));
  return { id: webhook.id, url: webhook.url };
}

/** Signs `user` in through the console, in a browser of its own, and returns the session. */
async function sessionOf(browser: Browser, user: User, userAgent?: string): Promise<SignedIn> {
  const context = await browser.newContext({ baseURL: E2E_BASE_URL, userAgent });
  await signIn(await context.newPage(), user.id, user.password);
  const session = await context.storageState();
  await context.close();
  return session;
}

async function makeWorld(browser: Browser, admin: APIRequestContext, slot: number): Promise<World> {
  const names = worldNames(slot);
  const { alma, milo, bank, rolloutBanks, serverSource } = names;
  const market = await new E2eMarketplace().start();
  const receiver = await startReceiver();
  receiver.answer("/alma", 500);
  receiver.answer("/server", 500);
  market.setCatalog(SOURCE, [catalogEntry("first"), faqEntry("first"), serverGuideEntry(names.serverGuide, "first")]);
  market.failCatalog(BROKEN_SOURCE, 500);
  await removeWorld(admin, names);
  await createFreshUser(admin, { id: alma.id, display_name: "Alma", password: alma.password, role: "admin" });
  await createFreshUser(admin, { id: milo.id, display_name: "Milo", password: milo.password, role: "member" });
  const key = await expectOk(await admin.post(`/ext/svc/admin/users/${alma.id}/api-keys`, { data: { description: "a11y setup" } }));
  const api = await apiRequest.newContext({
    baseURL: E2E_BASE_URL,
    extraHTTPHeaders: { authorization: `Bearer ${((await key.json()) as { token: string }).token}` },
  });

  await expectOk(await api.post("/ext/svc/me/template-sources", { data: { url: market.sourceUrl(SOURCE), alias: SOURCE } }));
  for (const id of [HANDBOOK, FAQ])
    await expectOk(await api.post(`/ext/svc/me/templates/${id}/install`, { data: { source_name: SOURCE } }));
  // Her edit of the edition line, which the source changes too: the update review offers a merge, with a conflict.
  await expectOk(
    await api.patch(`/ext/svc/me/templates/${HANDBOOK}`, {
      data: { manifest: e2eManifest({ directives: [{ name: "Edition", content: "Quote alma's annotated edition." }] }) },
    }),
  );
  await expectOk(
    await api.post("/ext/svc/admin/template-sources", {
      data: { url: market.sourceUrl(SOURCE), alias: serverSource, auth_token: "a11y-server-token" },
    }),
  );
  await expectOk(
    await api.post(`/ext/svc/admin/templates/${names.serverGuide}/install`, {
      data: { source_name: serverSource, source_scope: "server" },
    }),
  );
  await expectOk(await api.patch(`/ext/svc/admin/templates/${names.serverGuide}`, { data: { description: "Edited by Alma." } }));
  await expectOk(await api.post("/ext/svc/me/template-sources", { data: { url: market.sourceUrl(BROKEN_SOURCE), alias: BROKEN_SOURCE } }));
  await expectOk(
    await api.post("/ext/svc/me/templates", {
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
    await api.patch(`/ext/svc/me/templates/${NOTES}`, { data: { name: "Accessible notes (reviewed)", tags: ["a11y", "reviewed"] } }),
  );
  await expectOk(await api.post("/ext/svc/banks", { data: { bank_id: bank, name: "Accessible bank", template: NOTES } }));
  await expectOk(await api.post("/ext/svc/me/templates", { data: { id: ROLLOUT, name: "Accessible rollout", manifest: e2eManifest() } }));
  for (const rolloutBank of rolloutBanks)
    await expectOk(await api.post("/ext/svc/banks", { data: { bank_id: rolloutBank, template: ROLLOUT } }));
  // A third version that rewrites the manifest: the versions page compares it with the second,
  // and the bank, made from the second, is behind it (a rollout to make).
  await expectOk(
    await api.patch(`/ext/svc/me/templates/${NOTES}`, { data: { manifest: e2eManifest({ directives: directives("notes", 30) }) } }),
  );
  // Two policies: its history has an older one to restore.
  for (const strategy of ["careful", "balanced"]) {
    await expectOk(
      await api.put(`/ext/svc/banks/${bank}/policy`, {
        data: {
          document: {
            version: "2026-03-24",
            default_strategy: strategy,
            strategy_overrides: [{ scope: "channel", value: "support", strategy: "careful" }],
            public_access: { default: { actions: ["bank:recall"], recall_budget: "low" } },
          },
        },
      }),
    );
  }
  await expectOk(await api.post("/ext/svc/me/service-accounts", { data: { id: "a11y-bot", display_name: "A11y bot" } }));
  await expectOk(
    await api.post("/ext/svc/me/service-accounts/a11y-bot/api-keys", {
      data: { description: "release pipeline", expires_in_days: 3, scope: "read" },
    }),
  );
  // A newer edition in the marketplace, much longer: the installed template has an update to review.
  market.setCatalog(SOURCE, worldCatalog(names.serverGuide, catalogEntry("second", 40), faqEntry("first")));
  // Checked, so the Templates page offers its Update, and so does the server's.
  await expectOk(await api.post("/ext/svc/me/templates/check-updates", { data: {} }));
  await expectOk(await api.post("/ext/svc/admin/templates/check-updates"));
  const webhooks = {
    personal: await failingWebhook(api, "/ext/svc/me/webhooks", {
      url: receiver.url("/alma"),
      events: ["template.update_available", "rollout.completed"],
      description: "Alma's chat relay",
    }),
    server: await failingWebhook(api, "/ext/svc/admin/webhooks", {
      url: receiver.url("/server"),
      events: ["key.expiring"],
      description: names.serverWebhook,
    }),
  };
  // Alma's other session, in another browser, beside the one the tests use.
  await sessionOf(browser, alma, FIREFOX_ON_WINDOWS);
  const sessions = { alma: await sessionOf(browser, alma), milo: await sessionOf(browser, milo) };
  return { ...names, market, receiver, webhooks, api, sessions };
}

const test = base.extend<{ user: "alma" | "milo" | null; brokenSourceExpected: undefined }, { world: World }>({
  world: [
    async ({ browser }, use, workerInfo) => {
      const admin = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: ADMIN_HEADERS });
      const world = await makeWorld(browser, admin, workerInfo.parallelIndex);
      await use(world);
      await world.api.delete("/ext/svc/me/service-accounts/a11y-bot");
      await removeWorld(admin, world);
      await Promise.all([admin.dispose(), world.api.dispose(), world.market.stop(), world.receiver.close()]);
    },
    { scope: "worker", timeout: 5 * 60_000 },
  ],
  /** Who the test's browser is signed in as; null: signed out. */
  user: [null, { option: true }],
  storageState: async ({ world, user }, use) => {
    await use(user ? world.sessions[user] : undefined);
  },
  page: async ({ page }, use) => {
    await watchSettling(page);
    await use(page);
  },
  /** Alma's broken source fails to load wherever its catalog is asked for, on purpose. */
  brokenSourceExpected: [
    async ({ watch }, use) => {
      watch.expectError(new RegExp(`${BROKEN_SOURCE}.* → 502|status of 502`));
      await use(undefined);
    },
    { auto: true },
  ],
});

// Reduced motion, as a user who asks for it. Mantine's transitions still run (the theme does not
// set respectReducedMotion): `settle` finishes them. A trace of a test's page loads and axe runs is
// large and slows every step; the findings name what failed.
test.use({ reducedMotion: "reduce", trace: "off" });
test.describe.configure({ mode: "parallel", timeout: 5 * 60_000 });

/** Opens a page and waits until it shows its content: its h1, in the light scheme. */
async function open(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
  // Swagger UI renders the whole document in the browser: on a busy 2-core runner that took 20-45 s.
  if (path === "/api-reference") await expect(page.locator(".swagger-ui .opblock").first()).toBeVisible({ timeout: 60_000 });
}

/**
 * Checks the page as it is now, in both schemes, once it is still (`idle` false: while a request
 * is held on purpose); `state` says what is open or shown beyond its URL. Fails the test softly, so
 * every view still gets checked and all findings are reported at once.
 */
async function check(page: Page, state?: string, { idle = true } = {}) {
  const url = new URL(page.url());
  const view = { path: `${url.pathname}${url.search}`, width: page.viewportSize()!.width, state };
  const findings = await axeFindingsInBothSchemes(page, view, { idle });
  expect.soft(findings, `accessibility findings:\n${findings.join("\n")}`).toEqual([]);
  const where = `${view.path}${state ? ` (${state})` : ""} @ ${view.width}px`;
  const sideways = (await sidewaysProblems(page)).map((problem) => `${where}: ${problem}`);
  expect.soft(sideways, `sticking out sideways:\n${sideways.join("\n")}`).toEqual([]);
}

/** Opens a page and checks it as it loads. */
async function checkPage(page: Page, path: string, heading: string | RegExp) {
  await open(page, path, heading);
  await check(page);
}

/**
 * Opens a dialog (or drawer) by clicking `opener`, checks it as it first shows, then `more` (further
 * states inside it), and closes it by the button `closeBy` of the topmost dialog; returns once it is gone.
 */
async function checkDialog(
  page: Page,
  opener: Locator | (() => Promise<Locator>),
  name: string | RegExp,
  { closeBy = "Cancel", more }: { closeBy?: string; more?: (dialog: Locator) => Promise<void> } = {},
) {
  await (typeof opener === "function" ? await opener() : opener).click();
  const dialog = page.getByRole("dialog", { name, exact: typeof name === "string" });
  await expect(dialog).toBeVisible();
  await check(page, `${name} dialog`);
  await more?.(dialog);
  // The topmost dialog's button: `more` may have left a question open above this one.
  await page.getByRole("dialog").last().getByRole("button", { name: closeBy, exact: true }).click();
  await expect(dialog).toBeHidden();
}

/**
 * A row's action, as a dialog opener: its button, or on a phone, where a row's actions fold into
 * one "Actions for {row}" menu, that menu opened and the action's item in it.
 */
const rowAction = (page: Page, row: string | RegExp, action: string | RegExp) => async (): Promise<Locator> => {
  const button = page.getByRole("button", { name: action }).first();
  if (await button.isVisible()) return button;
  const actionsFor = typeof row === "string" ? `Actions for ${row}` : new RegExp(`^Actions for ${row.source}`);
  await page.getByRole("button", { name: actionsFor }).first().click();
  return page.getByRole("menu").getByRole("menuitem", { name: action }).first();
};

/**
 * Shows a user's or service account's keys under their row (`keys`, their row's Keys action),
 * checks the page so, and the new key's dialog opened from there, then hides them again.
 */
async function checkKeysRow(page: Page, keys: () => Promise<Locator>, owner: string) {
  await (await keys()).click();
  const row = page.getByTestId("api-keys-row");
  await expect(row.getByRole("heading", { name: `API keys of ${owner}` })).toBeVisible();
  await check(page, `keys of ${owner} shown`);
  await checkDialog(page, row.getByRole("button", { name: "Create API key" }), `New API key for ${owner}`);
  await (await keys()).click();
  await expect(row).toHaveCount(0);
}

/** A number for a new edition or version, new in this worker. */
let editions = 0;

/** The pages a member's navigation offers, and the signed-out ones, as a path and its h1. */
const MEMBER_PAGES: { path: string; heading: string }[] = [
  { path: "/", heading: "Home" },
  { path: "/sources", heading: "Template sources" },
  { path: "/marketplace", heading: "Marketplace" },
  { path: "/templates", heading: "Templates" },
  { path: "/banks", heading: "Banks" },
  { path: "/webhooks", heading: "Webhooks" },
  { path: "/account", heading: "Account" },
];
const SIGNED_OUT_PAGES: { path: string; heading: string }[] = [
  { path: "/signin", heading: "Sign in" },
  { path: "/", heading: "Bank Templates Console" },
];

/** The console's routes that only send the browser on to a section, and where they land. */
const REDIRECTS: Record<string, RegExp> = { "/admin": /\/admin\/users$/, "/templates/server": /\/templates\?scope=server$/ };

/**
 * Every console route and the test below that checks it: a new page fails the first test until it
 * is checked here too (the pages' folders are read, app/(home) and app/(console)).
 */
const CHECKED_ROUTES: Record<string, string> = {
  "/": "Home; a member's pages; signed out",
  "/account": "/account, reached from the account menu",
  "/admin": "the server's sources, marketplace and template (a redirect)",
  "/admin/audit": "/admin/audit",
  "/admin/sources": "/admin/sources",
  "/admin/users": "/admin/users",
  "/admin/webhooks": "the server's webhooks and one's deliveries",
  "/admin/webhooks/[webhook_id]": "the server's webhooks and one's deliveries",
  "/api-reference": "/api-reference",
  "/banks": "/banks",
  "/banks/[bank_id]": "a bank and its dialogs",
  "/banks/[bank_id]/policy": "a bank's policy, its history and dialogs",
  "/banks/new": "/banks/new",
  "/marketplace": "/marketplace; the server's marketplace",
  "/sources": "/sources; the server's sources",
  "/templates": "/templates; /templates?scope=server",
  "/templates/[scope]": "the server's sources, marketplace and template (a redirect)",
  "/templates/[scope]/[id]": "a hand-made template; an installed template; the server's template",
  "/templates/[scope]/[id]/update": "an update's review and its merge",
  "/templates/[scope]/[id]/versions": "a template's versions",
  "/templates/new": "/templates/new",
  "/webhooks": "/webhooks and its dialogs; a member's pages",
  "/webhooks/[webhook_id]": "a webhook's deliveries and its dialogs",
};

test("every console page is checked", () => {
  expect(Object.keys(CHECKED_ROUTES).sort()).toEqual(consoleRoutes().sort());
});

for (const size of [DESKTOP, MOBILE]) {
  const phone = size === MOBILE;
  test.describe(`${size.width} px`, () => {
    test.use({ viewport: size });

    test("the sign-in and landing pages, signed out", async ({ page }) => {
      for (const { path, heading } of SIGNED_OUT_PAGES) await checkPage(page, path, heading);
    });

    test.describe("member", () => {
      test.use({ user: "milo" });

      test("a member's pages", async ({ page }) => {
        for (const { path, heading } of MEMBER_PAGES) await checkPage(page, path, heading);
      });
    });

    test.describe("admin", () => {
      test.use({ user: "alma" });

      // Alma's Home lists what waits: her update, her bank behind, the admin cards.
      test("Home", async ({ page }) => {
        await checkPage(page, "/", "Home");
      });

      test("/sources and its dialogs", async ({ page }) => {
        await checkPage(page, "/sources", "Template sources");
        await checkDialog(page, page.getByRole("button", { name: "Add source" }), "Add a personal source");
        await checkDialog(page, rowAction(page, SOURCE, `Edit source ${SOURCE}`), `Edit source ${SOURCE}`);
        await checkDialog(page, rowAction(page, SOURCE, `Remove source ${SOURCE}`), "Remove source?");
        if (!phone) return;
        // The navigation drawer of narrow screens, open.
        await page.getByRole("button", { name: "Open navigation" }).click();
        await expect(page.getByRole("navigation", { name: "Console" })).toBeInViewport();
        await check(page, "navigation open");
        await page.getByRole("button", { name: "Close navigation" }).click();
      });

      test("/marketplace and its dialogs", async ({ page }) => {
        await checkPage(page, "/marketplace", "Marketplace");
        const preview = page.getByRole("button", { name: "Preview manifest of Accessible handbook" }).first();
        await checkDialog(page, preview, "Manifest of Accessible handbook", { closeBy: "Close" });
        await checkDialog(page, page.getByRole("button", { name: "Install Accessible handbook" }).first(), "Install Accessible handbook");
      });

      test("/templates, its dialogs and Update all", async ({ page, world }) => {
        await checkPage(page, "/templates", "Templates");
        // The list with its badges, at this width (the README's picture).
        await screenshot(page, "templates-badges");
        await checkDialog(page, rowAction(page, HANDBOOK, `Update template ${HANDBOOK}`), `Update template ${HANDBOOK}?`);
        await checkDialog(page, rowAction(page, NOTES, `Delete template ${NOTES}`), "Delete template?");
        // Update all asks first, listing each update with its diff on request.
        await checkDialog(page, page.getByRole("button", { name: "Update all" }), /^Update 1 template from their sources\?/, {
          more: async (dialog) => {
            await dialog.getByRole("button", { name: "Show diff" }).click();
            await expect(dialog.getByTestId("manifest-diff")).toBeVisible();
            await check(page, "Update all dialog, a diff shown");
          },
        });
        if (phone) {
          // A row's actions folded into its menu, open.
          await page.getByRole("button", { name: `Actions for ${HANDBOOK}` }).click();
          await expect(page.getByRole("menu")).toBeVisible();
          await check(page, "row actions menu open");
          await page.keyboard.press("Escape");
          await expect(page.getByRole("menu")).toBeHidden();
        }
        // A new edition of the FAQ: Update all updates it, skips the edited handbook and offers to
        // replace its edits, which asks first. (The FAQ is at its source's edition before: this
        // test is the only one that changes it, and applies what it changes.)
        world.market.setCatalog(
          SOURCE,
          worldCatalog(world.serverGuide, catalogEntry("second", 40), faqEntry(`${size.width} px, edition ${++editions}`)),
        );
        await page.getByRole("button", { name: "Update all" }).click();
        await page
          .getByRole("dialog", { name: /^Update 2 templates from their sources\?/ })
          .getByRole("button", { name: "Update 1 template" })
          .click();
        const report = page.getByTestId("update-all-report");
        await expect(report).toContainText("1 updated");
        await checkDialog(page, report.getByRole("button", { name: "Replace local edits in 1 template" }), "Replace local edits?");
      });

      test("/templates?scope=server", async ({ page }) => {
        await checkPage(page, "/templates?scope=server", "Templates");
      });

      test("/templates/new", async ({ page }) => {
        await checkPage(page, "/templates/new", /new template/i);
      });

      test("a hand-made template and its dialogs", async ({ page }) => {
        await checkPage(page, `/templates/personal/${NOTES}`, /Accessible notes/);
        await checkDialog(
          page,
          page.getByRole("button", { name: /^Roll out version \d+ to 1 bank$/ }),
          /^Roll out version \d+ of personal\//,
          {
            more: async (dialog) => {
              await dialog.getByRole("button", { name: "Preview 1 bank" }).click();
              await expect(dialog.getByRole("button", { name: /^Apply/ })).toBeEnabled();
              await check(page, "rollout dialog, previewed");
              // Again, keeping the bank's own edits (issue 36): what the merge keeps is said too.
              await dialog.getByRole("button", { name: "Change the banks" }).click();
              await dialog.getByRole("switch", { name: "Keep each bank's own edits (merge)" }).check();
              await dialog.getByRole("button", { name: "Preview 1 bank" }).click();
              await expect(dialog.getByRole("button", { name: /^Apply/ })).toBeEnabled();
              await check(page, "rollout dialog, previewed with merge");
            },
          },
        );
        await checkDialog(page, page.getByRole("button", { name: "Delete template" }), "Delete template?");
      });

      /**
       * A new version of the rollout template rolled out to its two banks: the apply step with one bank
       * done and the other's answer held, then the summary, where that bank failed (the answer a bank the
       * caller may not write gets; an admin may write every bank, so the test gives it). Each run makes
       * a new version, so both banks are behind it.
       */
      test("a rollout, applying and summed up", async ({ page, world }) => {
        const [, failing] = world.rolloutBanks;
        const edition = `${size.width} px, edition ${++editions}`;
        await expectOk(
          await world.api.patch(`/ext/svc/me/templates/${ROLLOUT}`, {
            data: { manifest: e2eManifest({ directives: directives(edition) }) },
          }),
        );
        await open(page, `/templates/personal/${ROLLOUT}`, "Accessible rollout");
        let release = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        const applying = (url: URL) => url.pathname === "/ext/svc/banks/rollout" && url.searchParams.get("dry_run") === "false";
        await page.route(applying, async (route) => {
          if ((route.request().postDataJSON() as { bank_ids: string[] }).bank_ids[0] !== failing) return route.continue();
          await held;
          const detail = `Bank ${failing} belongs to another user; only its owner or an admin may apply templates to it.`;
          const problem = { type: "urn:bank-templates:problem:forbidden", title: "Forbidden", status: 403, detail };
          await route.fulfill({ json: { results: [{ bank_id: failing, applied: false, import_result: null, changes: null, problem }] } });
        });
        const rollOut = page.getByRole("button", { name: /^Roll out version \d+ to 2 banks$/ });
        await checkDialog(page, rollOut, /^Roll out version \d+ of personal\//, {
          closeBy: "Done",
          more: async (dialog) => {
            await dialog.getByRole("button", { name: "Preview 2 banks" }).click();
            await dialog.getByRole("button", { name: "Apply to 2 banks" }).click();
            await expect(dialog.getByRole("progressbar")).toHaveAccessibleName("Applied 1 of 2 banks");
            await check(page, "rollout dialog, applying", { idle: false });
            release();
            await expect(dialog.getByTestId("rollout-summary")).toContainText("1 applied, 1 failed.");
            await check(page, "rollout dialog, summary");
          },
        });
      });

      // A rollback waiting to be rolled out (issue 33): the template's banks, the rollout (its choice of
      // banks, then its grouped preview) and a bank's page say it takes the banks back.
      test("a rollback waiting to roll out", async ({ page, world }) => {
        await expectOk(await world.api.post(`/ext/svc/me/templates/${ROLLOUT}/rollback`, { data: { version: 1 } }));
        await open(page, `/templates/personal/${ROLLOUT}`, "Accessible rollout");
        await expect(page.getByTestId("template-banks-rollback")).toBeVisible();
        await check(page, "a rollback waiting");
        await checkDialog(
          page,
          page.getByRole("button", { name: /^Roll out version \d+ to 2 banks$/ }),
          /^Roll out version \d+ of personal\//,
          {
            more: async (dialog) => {
              await expect(dialog.getByTestId("rollout-rollback-warning")).toBeVisible();
              await dialog.getByRole("button", { name: "Preview 2 banks" }).click();
              await expect(dialog.getByRole("button", { name: /^Apply/ })).toBeEnabled();
              await check(page, "rollout dialog of a rollback, previewed");
            },
          },
        );
        const [bank] = world.rolloutBanks;
        await open(page, `/banks/${bank}`, bank);
        await expect(page.getByTestId("bank-rollback-warning")).toBeVisible();
        await check(page, "a bank behind a rollback");
      });

      // With what it holds and its changelog, read from its versions after the page.
      test("an installed template", async ({ page }) => {
        await open(page, `/templates/personal/${HANDBOOK}`, /Accessible handbook/);
        await expect(page.getByTestId("template-summary")).toBeVisible();
        await expect(page.getByTestId("changelog-changes").first()).not.toHaveText("Reading what changed…");
        await check(page);
      });

      // The review of an update of an edited template: keeping the edits (the default) shows the
      // merge and the paths it could not decide, a conflict may take a value edited here, and
      // overwriting shows the diff.
      test("an update's review and its merge", async ({ page }) => {
        await open(page, `/templates/personal/${HANDBOOK}/update`, /update/i);
        await expect(page.getByTestId("merge-conflicts")).toBeVisible();
        await check(page, "merge with conflicts");
        const conflict = page.getByTestId("merge-conflict").first();
        await conflict.getByRole("radio", { name: "An edited value" }).check();
        await expect(conflict.getByTestId("conflict-value")).toBeVisible();
        await expect(page.getByTestId("merge-conflicts").getByTestId("manifest-diff")).toBeVisible();
        await check(page, "merge conflict with an edited value");
        await page.getByText("Overwrite my edits", { exact: true }).click();
        await expect(page.getByRole("button", { name: "Overwrite local edits and update" })).toBeVisible();
        await check(page, "update overwriting edits");
      });

      test("a template's versions and their dialogs", async ({ page }) => {
        await checkPage(page, `/templates/personal/${NOTES}/versions`, `Versions of ${NOTES}`);
        await expect(page.getByTestId("version-differences").getByTestId("manifest-diff")).toBeVisible();
        await checkDialog(page, rowAction(page, "version 1", "View version 1"), `Version 1 of ${NOTES}`, { closeBy: "Close" });
        await checkDialog(page, rowAction(page, "version 1", "Roll back to version 1"), `Roll back ${NOTES}?`);
        if (!phone) return;
        // At 390 px the versions table fits without sideways scrolling.
        const overflow = await page
          .getByTestId("versions-table")
          .evaluate((table) => table.parentElement!.scrollWidth - table.parentElement!.clientWidth);
        expect.soft(overflow, "the versions table scrolls sideways at 390 px").toBeLessThanOrEqual(0);
      });

      test("/banks", async ({ page }) => {
        await checkPage(page, "/banks", "Banks");
      });

      test("/banks/new", async ({ page }) => {
        await checkPage(page, "/banks/new", "New bank");
      });

      test("a bank and its dialogs", async ({ page, world }) => {
        const { bank } = world;
        await checkPage(page, `/banks/${bank}`, "Accessible bank");
        await checkDialog(page, page.getByRole("button", { name: "Apply template" }), `Apply a template to ${bank}`, {
          closeBy: "Discard",
          more: async (dialog) => {
            await pickTemplate(dialog, page, `personal/${NOTES}`);
            await dialog.getByRole("button", { name: "Preview" }).click();
            await expect(dialog.getByTestId("import-preview")).toBeVisible();
            await check(page, "apply template dialog, previewed");
            // A chosen template would be lost: Cancel asks first.
            await dialog.getByRole("button", { name: "Cancel" }).click();
            await expect(page.getByRole("dialog", { name: "Discard changes?" })).toBeVisible();
          },
        });
        await checkDialog(page, page.getByRole("button", { name: "Save as template" }), `Save ${bank} as a template`);
        await checkDialog(page, page.getByRole("button", { name: "Delete bank" }), "Delete bank?");
        // Edits in place: the config's form and JSON, and an entry's editor.
        await checkDialog(page, page.getByRole("button", { name: "Edit config" }), `Edit the config of ${bank}`);
        await checkDialog(page, page.getByRole("button", { name: "Add directive" }), `Add a directive to ${bank}`);
        // A restore from the History (issue 36): its dry run first.
        await checkDialog(page, page.getByRole("button", { name: "Restore this" }).last(), "Restore the bank's content", {
          more: async (dialog) => {
            await expect(dialog.getByTestId("bank-restore-preview").or(dialog.getByTestId("bank-restore-problem"))).toBeVisible();
            await check(page, "restore dialog, previewed");
          },
        });
        if (!phone) return;
        // At 390 px bank config keys wrap between words only: "disposition_empathy" may break after
        // its "_", so a key is at least as wide as "disposition_".
        const keyWidth = await page
          .getByTestId("bank-config")
          .getByRole("rowheader", { name: "disposition_empathy" })
          .evaluate((th) => th.clientWidth);
        expect.soft(keyWidth, "a bank config key is squeezed to a few characters a line at 390 px").toBeGreaterThanOrEqual(90);
      });

      test("a bank's policy, its history and dialogs", async ({ page, world }) => {
        await checkPage(page, `/banks/${world.bank}/policy`, "Bank policy");
        await checkDialog(page, page.getByRole("button", { name: "Delete policy" }), "Delete policy?");
        await page.getByRole("tab", { name: "History" }).click();
        await expect(page.getByTestId("policy-history").getByTestId("manifest-diff").first()).toBeVisible();
        await check(page, "policy history");
        // The older change, opened: it can be restored.
        const older = page.getByTestId("policy-change").nth(1);
        await older.getByRole("button").first().click();
        await checkDialog(page, older.getByRole("button", { name: /^Restore this/ }), "Restore this policy?");
      });

      // The header's account menu, open; its Account entry leads on (a move within the console,
      // which Back undoes).
      test("/account, reached from the account menu, and its dialogs", async ({ page, world }) => {
        await open(page, "/", "Home");
        await page.getByRole("button", { name: /^Account menu for / }).click();
        await expect(page.getByRole("menu")).toBeVisible();
        await check(page, "account menu open");
        await page.getByRole("menuitem", { name: "Account" }).click();
        await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
        await check(page);
        await checkDialog(page, rowAction(page, OTHER_SESSION, `Sign out ${OTHER_SESSION}`), "Sign out this session?");
        await checkDialog(page, page.getByRole("button", { name: "Sign out everywhere else" }), "Sign out everywhere else?");
        await checkDialog(page, page.getByRole("button", { name: "Change password" }), "Change your password");
        await checkDialog(page, page.getByRole("button", { name: "New service account" }), "New service account");
        await checkKeysRow(page, rowAction(page, "a11y-bot", "API keys of a11y-bot"), "service account a11y-bot");
        await checkDialog(page, rowAction(page, "a11y-bot", "Delete service account a11y-bot"), "Delete service account?");
        await checkDialog(page, rowAction(page, /key /, /^Revoke key /), "Revoke API key?");
        // A new key: the form, then the key shown once, which closes only once it is kept.
        await checkDialog(page, page.getByRole("button", { name: "Create API key" }).first(), "New API key for you", {
          closeBy: "Done",
          more: async (dialog) => {
            await dialog.getByLabel("Description").fill(`a11y ${size.width}, ${world.alma.id}`);
            await dialog.getByRole("button", { name: "Create key" }).click();
            await expect(dialog.getByTestId("new-token")).toBeVisible();
            await check(page, "new API key shown once");
            // Back before the key is kept asks first.
            await page.evaluate(() => window.history.back());
            const leave = page.getByRole("dialog", { name: "Leave without the new key?" });
            await expect(leave).toBeVisible();
            await check(page, "Leave without the new key? dialog");
            await leave.getByRole("button", { name: "Keep editing" }).click();
            await expect(leave).toBeHidden();
            await expect(page).toHaveURL(/\/account$/);
            await dialog.getByLabel("I have copied the key and stored it safely").check();
          },
        });
      });

      test("/admin/users and its dialogs", async ({ page, watch, world }) => {
        // The refused new user, on purpose.
        watch.expectError(/→ 422|status of 422/);
        const { alma } = world;
        await checkPage(page, "/admin/users", "Users");
        // The form with refused fields showing and, what was typed being lost, the question before closing.
        await checkDialog(page, page.getByRole("button", { name: "New user" }), "New user", {
          closeBy: "Discard",
          more: async (newUser) => {
            await newUser.getByLabel("User name").fill("Not A Name");
            await newUser.getByLabel("Email").fill("not-an-email");
            await newUser.getByRole("button", { name: "Create user" }).click();
            await expect(newUser.getByLabel("User name")).toHaveAttribute("aria-invalid", "true");
            await check(page, "New user dialog, fields refused");
            await newUser.getByRole("button", { name: "Cancel" }).click();
            await expect(page.getByRole("dialog", { name: "Discard changes?" })).toBeVisible();
            await check(page, "Discard changes? dialog");
          },
        });
        await checkDialog(page, rowAction(page, alma.id, `Edit user ${alma.id}`), `Edit user ${alma.id}`);
        await checkKeysRow(page, rowAction(page, alma.id, `API keys of user ${alma.id}`), `user ${alma.id}`);
        await checkDialog(page, rowAction(page, alma.id, `Delete user ${alma.id}`), "Delete user?");
      });

      // Server sources: the personal sources' dialogs, for every user.
      test("/admin/sources and its dialogs", async ({ page, world }) => {
        const { serverSource } = world;
        await checkPage(page, "/admin/sources", "Server sources");
        await checkDialog(page, page.getByRole("button", { name: "Add source" }), "Add a server source");
        await checkDialog(page, rowAction(page, serverSource, `Edit source ${serverSource}`), `Edit source ${serverSource}`);
        await checkDialog(page, rowAction(page, serverSource, `Remove source ${serverSource}`), "Remove source?");
      });

      // Alma's webhook, failing; the add dialog with its events shown.
      test("/webhooks and its dialogs", async ({ page, world }) => {
        const { url } = world.webhooks.personal;
        await checkPage(page, "/webhooks", "Webhooks");
        await checkDialog(page, page.getByRole("button", { name: "Add webhook" }), "Add a webhook", {
          closeBy: "Discard",
          more: async (dialog) => {
            await dialog.getByRole("radio", { name: "Only the events I choose" }).check();
            await expect(dialog.getByRole("checkbox", { name: "bank.created" })).toBeVisible();
            await check(page, "Add a webhook dialog, events to choose");
            await dialog.getByRole("button", { name: "Cancel" }).click();
            await expect(page.getByRole("dialog", { name: "Discard changes?" })).toBeVisible();
          },
        });
        await checkDialog(page, rowAction(page, url, `Edit webhook ${url}`), "Edit webhook");
        await checkDialog(page, rowAction(page, url, `Remove webhook ${url}`), "Remove webhook?");
      });

      // Its deliveries (a failed ping with its 500), one's payload and answer, and the secret's rotation asked.
      test("a webhook's deliveries and its dialogs", async ({ page, world }) => {
        const { id, url } = world.webhooks.personal;
        await open(page, `/webhooks/${id}`, /^Webhook to /);
        await expect(page.getByTestId("delivery-row").first()).toBeVisible();
        await check(page);
        await checkDialog(
          page,
          rowAction(page, "webhook.ping, attempt 1", "Details of webhook.ping, attempt 1"),
          "Delivery of webhook.ping, attempt 1",
          {
            closeBy: "Close",
            more: async (dialog) => {
              await expect(dialog.getByTestId("delivery-payload")).toBeVisible();
              await check(page, "a delivery's payload shown");
            },
          },
        );
        await checkDialog(page, page.getByRole("button", { name: `Rotate the secret of webhook ${url}` }), "Rotate the secret?");
      });

      test("the server's webhooks and one's deliveries", async ({ page, world }) => {
        await checkPage(page, "/admin/webhooks", "Server webhooks");
        await open(page, `/admin/webhooks/${world.webhooks.server.id}`, /^Webhook to /);
        await expect(page.getByTestId("delivery-row").first()).toBeVisible();
        await check(page);
      });

      test("/admin/audit, an entry's changes shown", async ({ page }) => {
        await checkPage(page, "/admin/audit", "Audit log");
        await page
          .getByRole("button", { name: /^Show the changes of / })
          .first()
          .click();
        await expect(page.getByTestId("audit-changes")).toBeVisible();
        await check(page, "an entry's changes shown");
      });

      // The slowest page.
      test("/api-reference", async ({ page }) => {
        await checkPage(page, "/api-reference", "API reference");
      });

      // The server's side of pages checked above for alma's own, and the routes that only lead to a section.
      test("the server's sources, marketplace and template", async ({ page, world }) => {
        await checkPage(page, "/sources?scope=server", "Template sources");
        await checkPage(page, "/marketplace?into=server", "Marketplace");
        await checkPage(page, `/templates/server/${world.serverGuide}`, "Onboarding guide for new support engineers");
        for (const [path, lands] of Object.entries(REDIRECTS)) {
          await page.goto(path);
          await expect(page).toHaveURL(lands);
        }
      });
    });
  });
}

test.describe("keyboard", () => {
  test.use({ user: "alma" });

  test("a long diff is a named region the keyboard reaches, shows focus on, and scrolls", async ({ page }) => {
    await open(page, `/templates/personal/${HANDBOOK}/update`, /update/i);
    await settle(page);
    // The handbook has local edits: the review offers to keep them first; the whole diff is overwriting's.
    await page.getByText("Overwrite my edits", { exact: true }).click();
    const diff = page.getByRole("region", { name: /lines added/ });
    const scrolled = () => diff.evaluate((region) => region.scrollTop);
    // Taller than its box, so there is something to scroll.
    expect(await diff.evaluate((region) => region.scrollHeight - region.clientHeight)).toBeGreaterThan(0);
    // Reached by Tab from the control before it, as a keyboard user gets there.
    await page.getByRole("radio", { name: "Side by side" }).focus();
    await page.keyboard.press("Tab");
    await expect(diff).toBeFocused();
    expect(await diff.evaluate((region) => getComputedStyle(region).outlineStyle)).toBe("solid");
    await page.keyboard.press("PageDown");
    await expect.poll(scrolled).toBeGreaterThan(0);
    await page.keyboard.press("Home");
    await expect.poll(scrolled).toBe(0);
  });
});
