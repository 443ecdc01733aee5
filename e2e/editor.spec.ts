import { type APIRequestContext, request as apiRequest, type Locator, type Page } from "@playwright/test";
import { ADMIN_HEADERS, apiCall, createFreshUser, deleteBankIfPresent } from "./support/api";
import { field, POLICY_REFUSED } from "./support/bank-steps";
import { pageHeading, signIn } from "./support/console";
import { E2E_BASE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";
import { e2eManifest } from "./support/marketplace";
import { manifestEditor, manifestValidation, typeManifest } from "./support/template-steps";

// The JSON editors: the manifest of a template and the policy of a bank, in CodeMirror. Each
// highlights JSON, folds, is named for screen readers, follows the dark theme, and shows a
// problem at its line; the resolve preview names the rule that won; a greyed-out Save says
// why. Member edgar (made through the API with the bootstrap admin key) owns what is used.
test.describe.configure({ mode: "serial" });

const EDGAR = { id: "edgar", password: "edgar's long e2e password" };
const TEMPLATE = "editor-notes";
const BANK = "editor-bank";
const POLICY = {
  version: "2026-03-24",
  default_strategy: "balanced",
  strategy_overrides: [
    { scope: "provider", value: "slack", strategy: "fast" },
    { scope: "channel", value: "slack", strategy: "chatty" },
  ],
  public_access: {
    default: { actions: ["bank:recall"], recall_budget: "low" },
    overrides: [{ scope: "channel", value: "internal", actions: ["bank:recall", "bank:reflect"] }],
  },
};

/** Setup and cleanup through the API, outside any test's page. */
async function withApi(run: (request: APIRequestContext) => Promise<void>) {
  const request = await apiRequest.newContext({ baseURL: E2E_BASE_URL });
  try {
    await run(request);
  } finally {
    await request.dispose();
  }
}

test.beforeAll(() =>
  withApi(async (request) => {
    // A clean slate: a CI retry runs the whole serial file again on the same data.
    await deleteBankIfPresent(request, BANK);
    await createFreshUser(request, { id: EDGAR.id, display_name: "Edgar", password: EDGAR.password });
    const key = await apiCall(request, "POST", `/ext/svc/admin/users/${EDGAR.id}/api-keys`, ADMIN_HEADERS, { description: "editor e2e" });
    const edgar = { authorization: `Bearer ${key!.token as string}` };
    await apiCall(request, "POST", "/ext/svc/me/templates", edgar, { id: TEMPLATE, name: "Editor notes", manifest: e2eManifest() });
    await apiCall(request, "POST", "/ext/svc/banks", edgar, { bank_id: BANK, template: TEMPLATE });
  }),
);

test.afterAll(() =>
  withApi(async (request) => {
    await deleteBankIfPresent(request, BANK);
    await apiCall(request, "DELETE", `/ext/svc/admin/users/${EDGAR.id}`, ADMIN_HEADERS);
  }),
);

/** The distinct text colours of the editor's tokens: more than one when JSON is highlighted. */
const tokenColours = (editor: Locator) =>
  editor.evaluate((content) => new Set([...content.querySelectorAll(".cm-line span")].map((s) => getComputedStyle(s).color)).size);

/** The editor's line that holds `text`. */
const lineWith = (editor: Locator, text: string) => editor.locator(".cm-line").filter({ hasText: text });

/** The lines that carry an error underline. */
const markedLines = (page: Page, editor: Locator) => editor.locator(".cm-line").filter({ has: page.locator(".cm-lintRange-error") });

/** Expects an error marker in the gutter on the same row as `line`. */
async function expectGutterMarkerBeside(page: Page, line: Locator) {
  const marker = page.locator(".cm-lint-marker-error");
  await expect(marker).toHaveCount(1);
  const [markerBox, lineBox] = [await marker.boundingBox(), await line.boundingBox()];
  expect(markerBox && lineBox && Math.abs(markerBox.y + markerBox.height / 2 - (lineBox.y + lineBox.height / 2))).toBeLessThan(8);
}

/** Folds the block that opens on `line` with the keyboard, sees it folded, and unfolds it. */
async function foldWithKeyboard(page: Page, editor: Locator, line: string, hidden: string) {
  await lineWith(editor, line).click();
  const before = await editor.locator(".cm-line").count();
  await page.keyboard.press("Control+Shift+BracketLeft");
  await expect(editor.getByLabel("folded code")).toBeVisible();
  await expect(lineWith(editor, hidden)).toHaveCount(0);
  await expect.poll(() => editor.locator(".cm-line").count()).toBeLessThan(before);
  await page.keyboard.press("Control+Shift+BracketRight");
  await expect(editor.getByLabel("folded code")).toHaveCount(0);
  await expect(lineWith(editor, hidden)).toHaveCount(1);
}

/** Folds everything from the first line with the mouse (the fold gutter) and unfolds it from its placeholder. */
async function foldWithMouse(page: Page, editor: Locator) {
  await page.getByTitle("Fold line", { exact: true }).first().click();
  await expect(editor.locator(".cm-line")).toHaveCount(1);
  // Right after the fold, the editor may redraw the placeholder between the press and the release
  // of the click, and Chromium then sends the click to the line instead (no unfold): clicked
  // again while the placeholder is still there, as a user would, until the lines come back.
  await expect(async () => {
    const placeholder = editor.getByLabel("folded code");
    if ((await placeholder.count()) > 0) await placeholder.click({ timeout: 2000 });
    expect(await editor.locator(".cm-line").count()).toBeGreaterThan(5);
  }).toPass({ timeout: 15_000 });
}

test("the manifest editor highlights JSON, folds it, and marks an invalid field at its line", async ({ page }) => {
  await signIn(page, EDGAR.id, EDGAR.password);
  await page.goto(`/templates/personal/${TEMPLATE}`);
  await expect(pageHeading(page, "Editor notes")).toBeVisible();
  const editor = manifestEditor(page);

  // CodeMirror, named and described for assistive technology, with line numbers and highlighting.
  await expect(page.getByRole("textbox", { name: "Manifest (JSON)" })).toHaveAttribute("data-testid", "manifest-editor");
  await expect(editor).toHaveClass(/cm-content/);
  await expect(editor).toHaveAttribute("aria-describedby", /.+/);
  await expect(page.locator(".cm-lineNumbers")).toContainText("1");
  await expect(manifestValidation(page)).toContainText("Valid bank-template manifest");
  expect(await tokenColours(editor)).toBeGreaterThanOrEqual(3);

  // An empty directive name: its message in the list, an underline on its line, a gutter marker beside it.
  await typeManifest(
    page,
    e2eManifest({
      directives: [
        { name: "Be kind", content: "Answer customers warmly and plainly." },
        { name: "", content: "Name the ticket each fact comes from." },
      ],
    }),
  );
  const errors = manifestValidation(page).getByTestId("manifest-errors");
  await expect(errors).toContainText("manifest.directives[1].name");
  await expect(errors).toContainText("must not be blank");
  await expect(editor).toHaveAttribute("aria-invalid", "true");
  await expect(markedLines(page, editor)).toHaveCount(1);
  await expect(markedLines(page, editor)).toHaveText(/^\s*"name": "",?$/);
  await expectGutterMarkerBeside(page, markedLines(page, editor));
  // Hovering the underlined text shows the message and the path.
  await markedLines(page, editor).locator(".cm-lintRange-error").hover();
  const tooltip = page.locator(".cm-tooltip-lint");
  await expect(tooltip).toContainText("must not be blank");
  await expect(tooltip).toContainText("manifest.directives[1].name");
  // Save says why it is off.
  await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await expect(page.getByTestId("save-blocked-reason")).toHaveText("Save is off: the manifest has 1 problem to fix.");

  // Folding, with the keyboard and with the mouse.
  await foldWithKeyboard(page, editor, '"directives": [', '"name": ""');
  await foldWithMouse(page, editor);

  // Not JSON: the spot is marked too, and the editor is still a keyboard user's: Tab moves on.
  await editor.fill('{ "version": "1", }');
  await expect(manifestValidation(page)).toContainText("Not valid JSON");
  await expect(editor.locator(".cm-lintRange-error, .cm-lintPoint-error")).toHaveCount(1);
  await expect(page.getByTestId("save-blocked-reason")).toHaveText("Save is off: the manifest is not valid JSON.");
  await editor.focus();
  await page.keyboard.press("Tab");
  await expect(editor).not.toBeFocused();

  // A line link of the list selects the spot in the editor.
  await typeManifest(page, e2eManifest({ mental_models: [{ id: "m", name: "M", source_query: "Q?", max_tokens: 100 }] }));
  await errors.getByRole("button", { name: /^Go to manifest\.mental_models\[0\]\.max_tokens, line \d+$/ }).click();
  await expect(editor).toBeFocused();
  expect(await page.evaluate(() => document.getSelection()?.toString())).toBe('"max_tokens": 100');

  await page.getByRole("button", { name: "Discard changes", exact: true }).click();
  await expect(manifestValidation(page)).toContainText("Valid bank-template manifest");
  await expect(page.locator(".cm-lint-marker-error")).toHaveCount(0);
});

test("a cleared name says, at the field and beside Save, why Save is off", async ({ page }) => {
  await signIn(page, EDGAR.id, EDGAR.password);
  await page.goto(`/templates/personal/${TEMPLATE}`);
  const form = page.getByRole("form", { name: `Edit template ${TEMPLATE}` });
  const name = form.getByRole("textbox", { name: "Name" });
  await name.fill("");
  const save = form.getByRole("button", { name: "Save changes" });
  await expect(save).toBeDisabled();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("A template needs a name: saving is off until it has one")).toBeVisible();
  const reason = form.getByTestId("save-blocked-reason");
  await expect(reason).toHaveText("Save is off: the template needs a name.");
  await expect(save).toHaveAttribute("aria-describedby", (await reason.getAttribute("id"))!);

  await name.fill("Editor notes, renamed");
  await expect(reason).toHaveCount(0);
  await expect(save).toBeEnabled();
  await form.getByRole("button", { name: "Discard changes", exact: true }).click();
  await expect(name).toHaveValue("Editor notes");

  // A new template lists what is missing before it can be created.
  await page.goto("/templates/new");
  await expect(pageHeading(page, "New template")).toBeVisible();
  await expect(page.getByTestId("save-blocked-reason")).toHaveText(
    "Create is off: the template needs an ID, the template needs a name and the manifest is empty.",
  );
});

test("the policy editor highlights and folds JSON and marks a refused field at its line, in both themes", async ({ page, watch }) => {
  watch.expectError(POLICY_REFUSED);
  await signIn(page, EDGAR.id, EDGAR.password);
  await page.goto(`/banks/${BANK}/policy`);
  await expect(pageHeading(page, "Bank policy")).toBeVisible();
  const editor = page.getByTestId("policy-json");
  await expect(page.getByRole("textbox", { name: "Policy document" })).toHaveClass(/cm-content/);

  const refused = { ...POLICY, public_access: { ...POLICY.public_access, default: { actions: ["bank:recall"], recall_max_tokens: 0 } } };
  await editor.fill(JSON.stringify(refused, null, 2));
  await expect(field(page.getByTestId("policy-form"), "Default strategy")).toHaveValue("balanced");
  expect(await tokenColours(editor)).toBeGreaterThanOrEqual(3);
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByTestId("policy-errors")).toContainText("public_access.default.recall_max_tokens: must be a positive integer");
  await expect(markedLines(page, editor)).toHaveText(/^\s*"recall_max_tokens": 0$/);
  await expectGutterMarkerBeside(page, markedLines(page, editor));

  await foldWithKeyboard(page, editor, '"strategy_overrides": [', '"strategy": "chatty"');
  await foldWithMouse(page, editor);

  // Invalid JSON is marked where it breaks.
  await editor.fill('{ "version": "2026-03-24", }');
  await expect(page.getByText(/^Not valid JSON: /)).toBeVisible();
  await expect(editor).toHaveAttribute("aria-invalid", "true");
  await expect(editor.locator(".cm-lintRange-error, .cm-lintPoint-error")).toHaveCount(1);

  // The dark theme: the editor takes the page's background and lighter token colours.
  await editor.fill(JSON.stringify(POLICY, null, 2));
  const key = lineWith(editor, '"default_strategy"').locator("span").first();
  const colours = async () => ({
    key: await key.evaluate((s) => getComputedStyle(s).color),
    editor: await page.locator(".cm-editor").evaluate((e) => getComputedStyle(e).backgroundColor),
    body: await page.evaluate(() => getComputedStyle(document.body).backgroundColor),
  });
  const light = await colours();
  expect(light.editor).toBe(light.body);
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  await expect.poll(async () => (await colours()).key).not.toBe(light.key);
  const dark = await colours();
  expect(dark.editor).toBe(dark.body);
  expect(dark.editor).not.toBe(light.editor);
  await page.getByRole("button", { name: "Switch to light theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");

  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByTestId("policy-status")).toHaveText("Policy saved.");
  await expect(page.locator(".cm-lint-marker-error")).toHaveCount(0);
});

test("the resolve preview names the rule that won, for strategy and for public access", async ({ page }) => {
  await signIn(page, EDGAR.id, EDGAR.password);
  await page.goto(`/banks/${BANK}/policy`);
  const preview = page.getByTestId("resolve-preview");
  const resolve = async (context: { provider?: string; channel?: string; topic?: string }, strategy: string, access: string) => {
    for (const key of ["provider", "channel", "topic"] as const) {
      await preview.getByRole("textbox", { name: key[0]!.toUpperCase() + key.slice(1) }).fill(context[key] ?? "");
    }
    await expect(preview.getByTestId("strategy-rule")).toHaveText(strategy);
    await expect(preview.getByTestId("access-rule")).toHaveText(access);
  };
  await resolve({}, "won by default_strategy", "won by public_access.default");
  await expect(preview.getByTestId("resolved-strategy")).toHaveText("balanced");
  await resolve({ provider: "slack" }, "won by strategy_overrides[0] (provider = slack)", "won by public_access.default");
  await expect(preview.getByTestId("resolved-strategy")).toHaveText("fast");
  await resolve({ provider: "slack", channel: "slack" }, "won by strategy_overrides[1] (channel = slack)", "won by public_access.default");
  await expect(preview.getByTestId("resolved-strategy")).toHaveText("chatty");
  await resolve({ channel: "internal" }, "won by default_strategy", "won by public_access.overrides[0] (channel = internal)");
  await expect(preview.getByTestId("resolved-access")).toContainText("bank:reflect");

  // Nothing applies: said as such.
  const editor = page.getByTestId("policy-json");
  await editor.fill(
    JSON.stringify({ version: "2026-03-24", strategy_overrides: [{ scope: "topic", value: "x", strategy: "s" }] }, null, 2),
  );
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByTestId("policy-status")).toHaveText("Policy saved.");
  await resolve(
    { topic: "y" },
    "no strategy override matches and there is no default_strategy",
    "no public access override matches and there is no public_access.default",
  );
  await expect(preview.getByTestId("resolved-strategy")).toHaveText("none");
});
