import { type APIRequestContext, request as apiRequest, type Browser, type Page } from "@playwright/test";
import { ADMIN_HEADERS as admin, apiCall as api, createFreshUser, deleteBankIfPresent, deleteIfPresent, expectOk } from "./support/api";
import { jsonDocument, openPolicy, policyJson } from "./support/bank-steps";
import { consoleNav, signIn } from "./support/console";
import { E2E_ADMIN_PASSWORD, E2E_BASE_URL } from "./support/env";
import { DESKTOP, expect, type PageWatch, screenshotBoth, test } from "./support/fixtures";
import { E2eMarketplace, e2eManifest } from "./support/marketplace";
import { manifestValidation, manifestValue, typeManifest } from "./support/template-steps";

// Issue 34 item 2 (CONTRACT §19): the console never overwrites silently. Two people edit the same
// thing at once, each in a browser of their own; the second save finds it changed (412), keeps
// what was typed, names who changed what, and merges onto theirs, overwrites or discards, as
// chosen. The stored document is read through the API after each choice.
test.describe.configure({ mode: "serial" });

const TOVE = "tove";
const TOVE_PASSWORD = "tove's long password";
const BANK = "conflict:policy";
const TEMPLATE = "conflict-notes";
const bankPath = `/ext/svc/banks/${encodeURIComponent(BANK)}`;
const templatePath = `/ext/svc/me/templates/${TEMPLATE}`;
/** The 412 each conflict's save meets, on purpose. */
const PRECONDITION_FAILED = / → 412|status of 412 /;

const V1 = {
  version: "2026-03-24",
  default_strategy: "balanced",
  public_access: { default: { actions: ["bank:recall"], recall_budget: "low" } },
};
const MANIFEST = { version: "1", bank: { reflect_mission: "Answer questions." } };

let toveHeaders: Record<string, string>;

/**
 * A second browser of its own (cookies and all), signed in as `user`. Watched like the test's
 * page: `close` fails the test on its console errors and failed requests, but the 412s.
 */
async function secondBrowser(browser: Browser, user: string, password: string) {
  const context = await browser.newContext({ baseURL: E2E_BASE_URL, viewport: DESKTOP });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`request failed: ${response.request().method()} ${response.url()} → ${response.status()}`);
  });
  await signIn(page, user, password);
  const close = async () => {
    await context.close();
    expect(problems.filter((p) => !PRECONDITION_FAILED.test(p))).toEqual([]);
  };
  return { page, close };
}

/**
 * The start of each test: tove signed in on the test's page, the other browser beside it, and the
 * 412s the conflicts meet expected. Two browsers and three rounds of edits take longer than one
 * test usually may.
 */
async function besideTove(page: Page, watch: PageWatch, other: ReturnType<typeof secondBrowser>) {
  test.setTimeout(240_000);
  watch.expectError(PRECONDITION_FAILED);
  await signIn(page, TOVE, TOVE_PASSWORD);
  return other;
}

async function storedPolicy(request: APIRequestContext) {
  const res = await expectOk(await request.get(`${bankPath}/policy`, { headers: admin }));
  return ((await res.json()) as { document: Record<string, unknown> }).document;
}

async function storedManifest(request: APIRequestContext) {
  const res = await expectOk(await request.get(templatePath, { headers: toveHeaders }));
  return ((await res.json()) as { manifest: Record<string, unknown> }).manifest;
}

/** Replaces the policy editor's JSON with `document` (the form follows). */
async function typePolicy(page: Page, document: Record<string, unknown>) {
  await policyJson(page).fill(JSON.stringify(document, null, 2));
  await expect(page.getByTestId("policy-status")).toHaveText("Unsaved changes");
}

async function savePolicy(page: Page) {
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByTestId("policy-status")).toHaveText("Policy saved.");
}

/** Saves, and meets the conflict: someone else changed the policy; the draft stays in the editor. */
async function saveIntoConflict(page: Page, author: string) {
  const draft = await jsonDocument(page);
  await page.getByRole("button", { name: "Save policy" }).click();
  const conflict = page.getByTestId("edit-conflict");
  await expect(conflict).toContainText("Someone else has updated this policy");
  await expect(conflict.getByTestId("edit-conflict-author")).toContainText(author);
  expect(await jsonDocument(page), "what was typed stays in the editor").toEqual(draft);
  return conflict;
}

// Banks outlive their owner, and Home counts every bank an admin sees: later specs on this
// worker's server expect none (home.spec's first steps failed on this bank once). Tove's
// template goes with her.
test.afterAll(async ({ request }) => {
  await deleteBankIfPresent(request, BANK);
  await deleteIfPresent(request, `/ext/svc/admin/users/${TOVE}`);
});

test("setup: member tove owns a bank with a policy, and a template of her own", async ({ request }) => {
  await deleteBankIfPresent(request, BANK);
  await createFreshUser(request, { id: TOVE, display_name: "Tove", password: TOVE_PASSWORD });
  const key = await api(request, "POST", `/ext/svc/admin/users/${TOVE}/api-keys`, admin, { description: "conflicts e2e setup" });
  toveHeaders = { authorization: `Bearer ${key!.token as string}` };
  await api(request, "POST", "/ext/svc/me/templates", toveHeaders, { id: TEMPLATE, name: "Conflict notes", manifest: MANIFEST });
  await api(request, "POST", "/ext/svc/banks", toveHeaders, { bank_id: BANK, template: TEMPLATE });
  await expectOk(await request.put(`${bankPath}/policy`, { headers: toveHeaders, data: { document: V1 } }));
});

test("tove and the admin edit one bank policy at once: merge, overwrite and discard each do what they say", async ({
  page,
  browser,
  request,
  watch,
}) => {
  const other = await besideTove(page, watch, secondBrowser(browser, "admin", E2E_ADMIN_PASSWORD));
  const adminPage = other.page;
  await openPolicy(page, BANK);
  await adminPage.goto(`/banks/${encodeURIComponent(BANK)}/policy`);
  await openPolicy(adminPage, BANK);

  // Merge: tove changes the default strategy, the admin the public recall budget; tove saves first.
  const toveMerge = { ...V1, default_strategy: "quick" };
  await typePolicy(page, toveMerge);
  await typePolicy(adminPage, { ...V1, public_access: { default: { actions: ["bank:recall"], recall_budget: "high" } } });
  await savePolicy(page);
  let conflict = await saveIntoConflict(adminPage, TOVE);
  await expect(conflict.getByTestId("edit-conflict-changes")).toContainText("quick");
  await screenshotBoth(adminPage, "edit-conflict-policy");
  await conflict.getByRole("button", { name: "Merge my changes onto theirs" }).click();
  await expect(adminPage.getByTestId("edit-conflict")).toHaveCount(0);
  const merged = { ...V1, default_strategy: "quick", public_access: { default: { actions: ["bank:recall"], recall_budget: "high" } } };
  expect(await jsonDocument(adminPage)).toEqual(merged);
  await savePolicy(adminPage);
  expect(await storedPolicy(request)).toEqual(merged);

  // Overwrite: both edit again; the admin saves first, and tove's save (from her older version) overwrites it.
  const toveOverwrite = { ...toveMerge, default_strategy: "thorough" };
  await typePolicy(page, toveOverwrite);
  await typePolicy(adminPage, { ...merged, default_strategy: "careful" });
  await savePolicy(adminPage);
  conflict = await saveIntoConflict(page, "admin");
  await conflict.getByRole("button", { name: "Overwrite with mine" }).click();
  await expect(page.getByTestId("policy-status")).toHaveText("Policy saved.");
  await expect(page.getByTestId("edit-conflict")).toHaveCount(0);
  expect(await storedPolicy(request)).toEqual(toveOverwrite);

  // Discard: tove saves first; the admin's save finds it and takes hers instead of his own.
  const toveLast = { ...toveOverwrite, default_strategy: "patient" };
  await typePolicy(adminPage, { ...merged, default_strategy: "hasty" });
  await typePolicy(page, toveLast);
  await savePolicy(page);
  conflict = await saveIntoConflict(adminPage, TOVE);
  await conflict.getByRole("button", { name: "Discard mine" }).click();
  await expect(adminPage.getByTestId("edit-conflict")).toHaveCount(0);
  expect(await jsonDocument(adminPage)).toEqual(toveLast);
  expect(await storedPolicy(request)).toEqual(toveLast);
  // The form now stands on the current version: the admin's next save goes through.
  const adminLast = { ...toveLast, default_strategy: "steady" };
  await typePolicy(adminPage, adminLast);
  await savePolicy(adminPage);
  expect(await storedPolicy(request)).toEqual(adminLast);
  await other.close();
});

/** Saves the template form, and meets the conflict: the manifest typed stays in the editor. */
async function saveTemplateIntoConflict(page: Page) {
  const typed = await manifestValue(page).inputValue();
  await page
    .getByRole("form", { name: `Edit template ${TEMPLATE}` })
    .getByRole("button", { name: "Save changes" })
    .click();
  const conflict = page.getByTestId("edit-conflict");
  await expect(conflict).toContainText("Someone else has updated this template");
  await expect(conflict.getByTestId("edit-conflict-author")).toContainText(TOVE);
  expect(await manifestValue(page).inputValue(), "what was typed stays in the editor").toEqual(typed);
  return conflict;
}

async function saveTemplateForm(page: Page) {
  const form = page.getByRole("form", { name: `Edit template ${TEMPLATE}` });
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByRole("status").filter({ hasText: "Changes saved." })).toBeVisible();
}

async function editManifest(page: Page, manifest: Record<string, unknown>) {
  await typeManifest(page, manifest);
  await expect(manifestValidation(page)).toContainText("Valid bank-template manifest");
}

test("tove edits her template's manifest in two tabs: a conflicting path is chosen, then overwrite and discard", async ({
  page,
  browser,
  request,
  watch,
}) => {
  const other = await besideTove(page, watch, secondBrowser(browser, TOVE, TOVE_PASSWORD));
  const tab = other.page;
  await page.goto(`/templates/personal/${TEMPLATE}`);
  await tab.goto(`/templates/personal/${TEMPLATE}`);
  await expect(manifestValue(page)).toHaveValue(/Answer questions/);
  await expect(manifestValue(tab)).toHaveValue(/Answer questions/);

  // Merge: both change the reflect mission, the tab also adds a retain mission; the first page saves first.
  const first = { version: "1", bank: { reflect_mission: "Answer from the notes." } };
  await editManifest(page, first);
  await editManifest(tab, { version: "1", bank: { reflect_mission: "Answer briefly.", retain_mission: "Keep the notes." } });
  await saveTemplateForm(page);
  let conflict = await saveTemplateIntoConflict(tab);
  await expect(conflict.getByTestId("edit-conflict-changes")).toContainText("Answer from the notes.");
  await conflict.getByRole("button", { name: "Merge my changes onto theirs" }).click();
  const path = conflict.getByTestId("merge-conflict");
  await expect(path).toHaveCount(1);
  await expect(path).toHaveAttribute("data-path", "manifest.bank.reflect_mission");
  await screenshotBoth(tab, "edit-conflict-template");
  await path.getByRole("radio", { name: "Theirs" }).check();
  await conflict.getByRole("button", { name: "Use the merge" }).click();
  await expect(tab.getByTestId("edit-conflict")).toHaveCount(0);
  const merged = { version: "1", bank: { reflect_mission: "Answer from the notes.", retain_mission: "Keep the notes." } };
  expect(JSON.parse(await manifestValue(tab).inputValue())).toEqual(merged);
  await saveTemplateForm(tab);
  expect(await storedManifest(request)).toEqual(merged);

  // Overwrite: the tab saves again; the first page, still on its own version, overwrites it.
  const overwrite = { version: "1", bank: { reflect_mission: "Answer kindly." } };
  await editManifest(page, overwrite);
  await editManifest(tab, { ...merged, bank: { ...merged.bank, retain_mission: "Keep everything." } });
  await saveTemplateForm(tab);
  conflict = await saveTemplateIntoConflict(page);
  await conflict.getByRole("button", { name: "Overwrite with mine" }).click();
  await expect(page.getByTestId("edit-conflict")).toHaveCount(0);
  await expect(
    page
      .getByRole("form", { name: `Edit template ${TEMPLATE}` })
      .getByRole("status")
      .filter({ hasText: "Changes saved." }),
  ).toBeVisible();
  expect(await storedManifest(request)).toEqual(overwrite);

  // Discard: the first page saves; the tab takes that version instead of its own.
  const last = { version: "1", bank: { reflect_mission: "Answer last." } };
  await editManifest(tab, { version: "1", bank: { reflect_mission: "Answer never." } });
  await editManifest(page, last);
  await saveTemplateForm(page);
  conflict = await saveTemplateIntoConflict(tab);
  await conflict.getByRole("button", { name: "Discard mine" }).click();
  await expect(tab.getByTestId("edit-conflict")).toHaveCount(0);
  expect(JSON.parse(await manifestValue(tab).inputValue())).toEqual(last);
  expect(await storedManifest(request)).toEqual(last);
  await other.close();
});

test("tove edits a source's description while its URL is changed through the API: the fields merge, and who did it is 'someone' to a member", async ({
  page,
  request,
  watch,
}) => {
  watch.expectError(PRECONDITION_FAILED);
  const market = await new E2eMarketplace().start();
  try {
    const entry = { id: "conflict-entry", name: "Conflict entry", description: "For the conflicts test.", manifest: e2eManifest() };
    market.setCatalog("notes", [entry]);
    market.setCatalog("moved", [entry]);
    const source = "/ext/svc/me/template-sources/conflict-src";
    await request.delete(source, { headers: toveHeaders });
    await api(request, "POST", "/ext/svc/me/template-sources", toveHeaders, {
      url: market.sourceUrl("notes"),
      alias: "conflict-src",
      description: "As added",
    });
    await signIn(page, TOVE, TOVE_PASSWORD);
    await consoleNav(page).getByRole("link", { name: "Sources", exact: true }).click();
    await page.getByRole("button", { name: "Edit source conflict-src" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit source conflict-src", exact: true });
    await expect(dialog.getByLabel("URL")).toHaveValue(market.sourceUrl("notes"));

    // Meanwhile a program (tove's own key: a member cannot read the audit log) moves the source.
    await api(request, "PATCH", source, toveHeaders, { url: market.sourceUrl("moved") });
    await dialog.getByLabel("Description").fill("Tove's notes");
    await dialog.getByRole("button", { name: "Save source" }).click();
    const conflict = dialog.getByTestId("edit-conflict");
    await expect(conflict).toContainText("Someone else has updated this source");
    await expect(conflict.getByTestId("edit-conflict-author")).toHaveText("Someone changed it; who and when cannot be known here.");
    await expect(conflict.getByTestId("edit-conflict-changes")).toContainText(
      `URL: ${market.sourceUrl("notes")} → ${market.sourceUrl("moved")}`,
    );
    await expect(dialog.getByLabel("Description")).toHaveValue("Tove's notes");
    await conflict.getByRole("button", { name: "Merge my changes onto theirs" }).click();
    await expect(dialog.getByLabel("URL")).toHaveValue(market.sourceUrl("moved"));
    await expect(dialog.getByLabel("Description")).toHaveValue("Tove's notes");
    await dialog.getByRole("button", { name: "Save source" }).click();
    await expect(dialog).toBeHidden();
    // A connection of its own: the test's one sat idle through the steps above, and the server may close it just as it is reused.
    const reader = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: toveHeaders });
    const stored = (await (await expectOk(await reader.get(source))).json()) as Record<string, unknown>;
    await reader.dispose();
    expect(stored).toMatchObject({ url: market.sourceUrl("moved"), description: "Tove's notes" });
  } finally {
    await market.stop();
  }
});
