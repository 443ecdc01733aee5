import type { Locator, Page } from "@playwright/test";
import { consoleNav, pageHeading } from "./console";
import { expect } from "./fixtures";

// Steps of the bank journey: each acts through the console as a user would and asserts
// what the page shows. They start from any console page unless they say otherwise.

/** A refused policy (422), for `watch.expectError` before `showPolicyFieldError`. */
export const POLICY_REFUSED = /\/policy → 422|status of 422 \(Unprocessable Entity\) \(\S+\/policy\)/;

/** What a dry run or an apply reports; lists in the API's order. */
export interface ImportExpectation {
  configApplied: boolean;
  mentalModelsCreated?: string[];
  mentalModelsUpdated?: string[];
  directivesCreated?: string[];
  directivesUpdated?: string[];
}

const bankPath = (bankId: string) => `/banks/${encodeURIComponent(bankId)}`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const urlOf = (path: string) => new RegExp(`${escapeRegExp(path)}$`);

/** Checks a preview (or an apply result) lists exactly what is expected. */
async function expectImport(panel: Locator, expected: ImportExpectation) {
  await expect(panel.getByTestId("config-applied")).toContainText(expected.configApplied ? "yes" : "no, left as they are");
  const lists: [string, string[] | undefined][] = [
    ["Mental models created", expected.mentalModelsCreated],
    ["Mental models updated", expected.mentalModelsUpdated],
    ["Directives created", expected.directivesCreated],
    ["Directives updated", expected.directivesUpdated],
  ];
  for (const [title, names = []] of lists) {
    const list = panel.getByRole("list", { name: title, exact: true });
    if (names.length) await expect(list.getByRole("listitem")).toHaveText(names);
    else await expect(list).toHaveCount(0);
  }
}

/** A form field by its label: a text box, or a combobox (Mantine's selects, autocompletes and tag inputs). */
export const field = (scope: Locator | Page, name: string) =>
  scope.getByRole("combobox", { name, exact: true }).or(scope.getByRole("textbox", { name, exact: true }));

/** Types a template ref into the picker and closes its suggestions. */
export async function pickTemplate(scope: Locator, page: Page, template: string) {
  const input = field(scope, "Template");
  await input.fill(template);
  await page.keyboard.press("Escape");
  await expect(input).toHaveValue(template);
}

/** Opens Banks from the navigation. */
export async function openBanks(page: Page) {
  await consoleNav(page).getByRole("link", { name: "Banks", exact: true }).click();
  await expect(pageHeading(page, "Banks")).toBeVisible();
}

/** Opens a bank's page from the Banks list. */
export async function openBank(page: Page, bankId: string, name = bankId) {
  if (urlOf(bankPath(bankId)).test(page.url())) return;
  await openBanks(page);
  await page.getByTestId("banks-table").getByRole("link", { name, exact: true }).click();
  await expect(page).toHaveURL(urlOf(bankPath(bankId)));
  await expect(pageHeading(page, name)).toBeVisible();
}

/**
 * Banks › New bank: fills id, name and template, runs Preview and checks the dry run lists
 * what will be created, then applies and lands on the new bank's page.
 * `beforeApply` runs while the preview is shown (for a screenshot).
 */
export async function createBankWithPreview(
  page: Page,
  opts: { bankId: string; name?: string; template: string; expected: ImportExpectation; beforeApply?: () => Promise<void> },
) {
  await openBanks(page);
  await page.getByRole("link", { name: "New bank", exact: true }).first().click();
  await expect(pageHeading(page, "New bank")).toBeVisible();
  const form = page.getByRole("form", { name: "New bank" });
  await form.getByRole("textbox", { name: "Bank id" }).fill(opts.bankId);
  if (opts.name) await form.getByRole("textbox", { name: "Name" }).fill(opts.name);
  await pickTemplate(form, page, opts.template);
  await expect(page.getByRole("button", { name: "Apply", exact: true })).toHaveCount(0);

  await form.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByTestId("import-preview");
  await expect(preview).toContainText(`Bank ${opts.bankId} does not exist yet: Apply creates it. Nothing has been written yet.`);
  await expect(preview.getByRole("heading", { level: 2 })).toContainText(opts.bankId);
  await expectImport(preview, opts.expected);
  await opts.beforeApply?.();

  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page).toHaveURL(urlOf(bankPath(opts.bankId)));
  await expect(pageHeading(page, opts.name ?? opts.bankId)).toBeVisible();
}

/** What the bank's page should show. */
export interface BankExpectation {
  name?: string;
  owner: string;
  /** The normalised ref last applied: `personal/{id}` or `server/{id}`. */
  template: string;
  /** The revision of that template, when it came from a source. */
  revision?: string;
  /** Config overrides as they read in the table. */
  config: Record<string, string>;
  mentalModels: { id: string; name: string }[];
  directives: { name: string; content: string }[];
}

/** Opens the bank's page and checks its name, owner, provenance, config, mental models and directives. */
export async function expectBankDetail(page: Page, bankId: string, expected: BankExpectation) {
  await openBank(page, bankId, expected.name);
  const about = page.getByTestId("bank-about");
  await expect(about).toContainText(bankId);
  await expect(about).toContainText(`Owner${expected.owner}`);
  const provenance = page.getByTestId("bank-provenance");
  await expect(provenance).toContainText(`Template${expected.template}`);
  await expect(provenance).toContainText(expected.revision ? `Revision${expected.revision}` : "none (hand-made template)");

  const config = page.getByTestId("bank-config");
  await expect(config.getByRole("rowheader")).toHaveText(Object.keys(expected.config).sort());
  for (const [key, value] of Object.entries(expected.config)) {
    await expect(config.getByRole("row").filter({ has: page.getByRole("rowheader", { name: key, exact: true }) })).toContainText(value);
  }
  await expect(page.getByRole("heading", { name: `Mental models (${expected.mentalModels.length})` })).toBeVisible();
  const models = page.getByTestId("bank-mental-models");
  for (const model of expected.mentalModels) {
    await expect(models.getByRole("button", { name: `${model.name} ${model.id}` })).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: `Directives (${expected.directives.length})` })).toBeVisible();
  const directives = page.getByTestId("bank-directives");
  await expect(directives.getByRole("rowheader")).toHaveText(expected.directives.map((d) => new RegExp(`^${escapeRegExp(d.name)}`)));
  for (const directive of expected.directives) {
    await expect(directives.getByRole("row").filter({ hasText: directive.name })).toContainText(directive.content);
  }
}

/**
 * On a bank's page: Apply template, Preview (the bank exists, so Apply updates it), Apply;
 * the page then shows what was applied.
 */
export async function applyTemplateWithPreview(
  page: Page,
  bankId: string,
  opts: { template: string; expected: ImportExpectation; beforeApply?: () => Promise<void> },
) {
  await page.getByRole("button", { name: "Apply template" }).click();
  const dialog = page.getByRole("dialog", { name: `Apply a template to ${bankId}` });
  await pickTemplate(dialog, page, opts.template);
  await dialog.getByRole("button", { name: "Preview" }).click();
  const preview = dialog.getByTestId("import-preview");
  await expect(preview).toContainText(`Bank ${bankId} exists: Apply updates it.`);
  await expectImport(preview, opts.expected);
  await opts.beforeApply?.();
  await dialog.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(dialog).toBeHidden();
  const result = page.getByTestId("import-result");
  await expect(result).toContainText(`Bank ${bankId} was updated.`);
  await expectImport(result, opts.expected);
}

/** From a bank's page, its policy page. */
export async function openPolicy(page: Page, bankId: string) {
  if (!urlOf(`${bankPath(bankId)}/policy`).test(page.url())) {
    await openBank(page, bankId);
    await page.getByRole("link", { name: "Policy", exact: true }).click();
  }
  await expect(pageHeading(page, "Bank policy")).toBeVisible();
  await expect(page.getByTestId("policy-form")).toBeVisible();
}

/** The JSON view (CodeMirror's editable content, once its code has loaded). */
export const policyJson = (page: Page) => page.getByTestId("policy-json");
/** Its whole text (a hidden text area: CodeMirror draws only the lines in view). */
const policyJsonText = (page: Page) => page.getByTestId("policy-json-value").inputValue();

/** The JSON view's document, parsed. */
export async function jsonDocument(page: Page): Promise<Record<string, unknown>> {
  return JSON.parse(await policyJsonText(page)) as Record<string, unknown>;
}

/** Picks an option of a Mantine select by its label. */
async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await page.getByRole("option", { name: option, exact: true }).click();
  await expect(select).toHaveValue(option);
}

/** Resolves one context in the preview and checks the strategy and public access shown. */
async function expectResolved(
  page: Page,
  context: { provider?: string; channel?: string; topic?: string },
  strategy: string,
  access: string,
) {
  const preview = page.getByTestId("resolve-preview");
  for (const key of ["provider", "channel", "topic"] as const) {
    await preview.getByRole("textbox", { name: key[0]!.toUpperCase() + key.slice(1) }).fill(context[key] ?? "");
  }
  await expect(preview.getByTestId("resolved-strategy")).toHaveText(strategy);
  await expect(preview.getByTestId("resolved-access")).toContainText(access);
}

/**
 * On a bank without a policy: writes one through the form (default strategy, a provider
 * and a topic override, public access by default with a channel override), checks the JSON
 * follows the form and the form follows the JSON (and pauses on invalid JSON), saves, and
 * checks the resolve preview changes with the context.
 */
export async function writePolicyAndCheckResolve(page: Page, bankId: string, opts: { beforeSave?: () => Promise<void> } = {}) {
  await openPolicy(page, bankId);
  await expect(page.getByTestId("no-policy")).toContainText("This bank has no policy");
  await expect(page.getByTestId("resolve-preview")).toContainText("Save a policy to preview how it resolves.");
  const form = page.getByTestId("policy-form");
  await expect(form.getByRole("textbox", { name: "Version" })).toHaveValue("2026-03-24");

  // Form → JSON.
  await field(form, "Default strategy").fill("balanced");
  await form.getByRole("button", { name: "Add strategy override" }).click();
  const first = form.getByTestId("strategy-override-0");
  await first.getByRole("textbox", { name: "Value" }).fill("slack");
  await field(first, "Strategy").fill("fast");
  await form.getByRole("button", { name: "Add strategy override" }).click();
  const second = form.getByTestId("strategy-override-1");
  await choose(page, field(second, "Scope"), "topic");
  await second.getByRole("textbox", { name: "Value" }).fill("billing");
  await field(second, "Strategy").fill("careful");

  await form.getByRole("switch", { name: "Grant public access by default" }).check();
  const grant = form.getByTestId("public-access-default");
  await expect(grant.getByText("bank:recall", { exact: true })).toBeVisible();
  await choose(page, field(grant, "Recall budget"), "mid");
  await grant.getByRole("textbox", { name: "Recall max tokens" }).fill("512");
  await form.getByRole("button", { name: "Add public access override" }).click();
  const override = form.getByTestId("access-override-0");
  await expect(field(override, "Scope")).toHaveValue("channel");
  await override.getByRole("textbox", { name: "Value" }).fill("internal");
  const actions = field(override, "Actions");
  await actions.fill("bank:reflect");
  await actions.press("Enter");
  await choose(page, field(override, "Recall budget"), "high");

  expect(await jsonDocument(page)).toEqual({
    version: "2026-03-24",
    default_strategy: "balanced",
    strategy_overrides: [
      { scope: "provider", value: "slack", strategy: "fast" },
      { scope: "topic", value: "billing", strategy: "careful" },
    ],
    public_access: {
      default: { actions: ["bank:recall"], recall_budget: "mid", recall_max_tokens: 512 },
      overrides: [{ scope: "channel", value: "internal", actions: ["bank:recall", "bank:reflect"], recall_budget: "high" }],
    },
  });

  // JSON → form.
  const edited = (await policyJsonText(page)).replace('"default_strategy": "balanced"', '"default_strategy": "thorough"');
  await policyJson(page).fill(edited);
  await expect(field(form, "Default strategy")).toHaveValue("thorough");

  // Invalid JSON: its parse error, and the form paused until it is fixed.
  await policyJson(page).fill(edited.replace('"version"', "version"));
  await expect(page.getByText(/^Not valid JSON: /)).toBeVisible();
  await expect(page.getByTestId("form-paused")).toBeVisible();
  await expect(field(form, "Default strategy")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save policy" })).toBeDisabled();
  await opts.beforeSave?.();
  await policyJson(page).fill(edited);
  await expect(page.getByTestId("form-paused")).toHaveCount(0);
  await expect(field(form, "Default strategy")).toBeEnabled();

  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByTestId("policy-status")).toHaveText("Policy saved.");
  await expect(page.getByTestId("no-policy")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete policy" })).toBeVisible();

  // The resolve preview follows the context: default, provider, topic over provider, channel access.
  await expectResolved(page, {}, "thorough", "bank:recall");
  await expect(page.getByTestId("resolved-access")).toContainText("recall budget mid, max tokens 512");
  await expectResolved(page, { provider: "slack" }, "fast", "recall budget mid");
  await expectResolved(page, { provider: "slack", topic: "billing" }, "careful", "recall budget mid");
  await expectResolved(page, { provider: "slack", channel: "internal" }, "fast", "bank:reflect");
  await expect(page.getByTestId("resolved-access")).toContainText("recall budget high, max tokens not set");
}

/**
 * On the policy page of a bank with a policy: a recall max tokens of 0 is refused by the
 * API (422) and the message shows at that field and in the summary; fixing it saves.
 * Declare POLICY_REFUSED first. `beforeFix` runs while the error is shown.
 */
export async function showPolicyFieldError(page: Page, opts: { beforeFix?: () => Promise<void> } = {}) {
  const grant = page.getByTestId("public-access-default");
  const tokens = grant.getByRole("textbox", { name: "Recall max tokens" });
  await tokens.fill("0");
  await page.getByRole("button", { name: "Save policy" }).click();
  const summary = page.getByTestId("policy-errors");
  await expect(summary).toContainText("The policy was not saved");
  await expect(summary).toContainText("public_access.default.recall_max_tokens: must be a positive integer");
  await expect(tokens).toHaveAttribute("aria-invalid", "true");
  await expect(grant.getByText("must be a positive integer")).toBeVisible();
  await opts.beforeFix?.();

  await tokens.fill("1024");
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByTestId("policy-status")).toHaveText("Policy saved.");
  await expect(summary).toHaveCount(0);
  await expect(tokens).not.toHaveAttribute("aria-invalid", "true");
  await expectResolved(page, {}, "thorough", "max tokens 1024");
}

/** On the policy page: Delete policy, confirmed; the page then says the bank has none. */
export async function deletePolicy(page: Page, bankId: string) {
  await openPolicy(page, bankId);
  await page.getByRole("button", { name: "Delete policy" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete policy?" });
  await expect(dialog).toContainText(`Delete the policy of ${bankId}?`);
  await dialog.getByRole("button", { name: "Delete policy" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("policy-status")).toHaveText("Policy deleted. The bank has no policy now.");
  await expect(page.getByTestId("no-policy")).toBeVisible();
  await expect(page.getByRole("button", { name: "Delete policy" })).toHaveCount(0);
  await expect(page.getByTestId("resolve-preview")).toContainText("Save a policy to preview how it resolves.");
}

/** On the bank's page: Delete bank, first cancelled, then confirmed; Banks no longer lists it. */
export async function deleteBank(page: Page, bankId: string, name = bankId) {
  if (!urlOf(bankPath(bankId)).test(page.url())) {
    const crumb = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: bankId, exact: true });
    if (await crumb.count()) await crumb.click();
    else await openBank(page, bankId, name);
  }
  await expect(pageHeading(page, name)).toBeVisible();
  await page.getByRole("button", { name: "Delete bank" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete bank?" });
  await expect(dialog).toContainText(`Delete ${bankId} with its config, mental models, directives, history and policy?`);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Delete bank" }).click();
  await dialog.getByRole("button", { name: "Delete bank" }).click();
  await expect(page).toHaveURL(/\/banks$/);
  await expect(pageHeading(page, "Banks")).toBeVisible();
  await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
}
