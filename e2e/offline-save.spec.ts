import type { APIRequestContext, Locator, Page, Request } from "@playwright/test";
import { ADMIN_HEADERS as admin, apiCall as api } from "./support/api";
import { signIn } from "./support/console";
import { E2E_ADMIN_PASSWORD } from "./support/env";
import { expect, MOBILE, type PageWatch, screenshotBoth, test } from "./support/fixtures";
import { e2eManifest } from "./support/marketplace";

// Honest offline (issue 23): a save that cannot reach the server waits for it, says so at the
// form and in the banner, and is sent again, the same request with the same Idempotency-Key,
// once the server answers, so it is done exactly once, even when the server did it and only
// the answer was lost. The server "goes away" for the browser alone: its requests to the API
// and to /healthz fail to connect (page.route), while the tests read the truth through the API.

const templatePath = (id: string) => `/ext/svc/admin/templates/${id}`;

/** A server template of its own for each test (ids with the time: a retry finds none of an earlier try's). */
async function freshTemplate(request: APIRequestContext, label: string): Promise<string> {
  const id = `offline-${label}-${Date.now()}`;
  await api(request, "POST", "/ext/svc/admin/templates", admin, { id, name: "Offline handbook", manifest: e2eManifest() });
  return id;
}

async function templateName(request: APIRequestContext, id: string): Promise<string> {
  const res = await request.get(templatePath(id), { headers: admin });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { name: string }).name;
}

/** The audit entries of the template's edits: one per write that was done. */
async function patchEntries(request: APIRequestContext, id: string): Promise<unknown[]> {
  const query = new URLSearchParams({ action: "template.patch", target: templatePath(id) });
  const res = await request.get(`/ext/svc/admin/audit?${query}`, { headers: admin });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { entries: unknown[] }).entries;
}

/** The server out of reach for this page: every API request and health check fails to connect. Returns "the server is back". */
async function serverDown(page: Page, watch: PageWatch): Promise<() => Promise<void>> {
  watch.expectError(/net::ERR_|Failed to load resource/);
  const refuse = (route: { abort: (code: string) => Promise<void> }) => route.abort("connectionrefused");
  await page.route("**/ext/svc/**", refuse);
  await page.route("**/healthz", refuse);
  return async () => {
    await page.unroute("**/ext/svc/**", refuse);
    await page.unroute("**/healthz", refuse);
  };
}

/** Every PATCH of the template the page sends (also those that never reach the server). */
function patchesOf(page: Page, id: string): Request[] {
  const patches: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === "PATCH" && new URL(request.url()).pathname === templatePath(id)) patches.push(request);
  });
  return patches;
}

/** Signs in and opens the editor of a fresh server template; with every PATCH of it the page sends. */
async function openEditor(page: Page, request: APIRequestContext, label: string) {
  const id = await freshTemplate(request, label);
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await page.goto(`/templates/server/${id}`);
  const form = page.getByRole("form", { name: `Edit template ${id}` });
  await expect(form.getByLabel("Name")).toHaveValue("Offline handbook");
  return { id, form, patches: patchesOf(page, id) };
}

test("a save while the server is out of reach waits for it, says so, and is done once when it answers", async ({
  page,
  request,
  watch,
}) => {
  const { id, form, patches } = await openEditor(page, request, "down");
  const serverBack = await serverDown(page, watch);

  await form.getByLabel("Name").fill("Offline handbook, renamed");
  await form.getByRole("button", { name: "Save changes" }).click();
  const waiting = form.getByTestId("save-waiting");
  await expect(waiting).toContainText("Saving when the server is back…");
  const banner = page.getByTestId("server-unreachable");
  await expect(banner).toContainText("Your save is sent again as soon as the server answers");
  await expect(banner).toContainText("nothing you typed is lost");
  // Nothing claims the save failed, and the form is still at it.
  await expect(form.getByRole("alert")).toHaveCount(0);
  await expect(form.getByRole("button", { name: "Save changes" })).toHaveAttribute("data-loading", "true");
  // While the server stays away the save waits: the health checks fail, the save is not sent again.
  await page.waitForTimeout(4000);
  await expect(waiting).toBeVisible();
  expect(patches).toHaveLength(1);
  expect(await templateName(request, id)).toBe("Offline handbook");

  await serverBack();
  await expect(form.getByRole("status").filter({ hasText: "Changes saved." })).toBeVisible({ timeout: 30_000 });
  await expect(waiting).toBeHidden();
  await expect(banner).toBeHidden();
  expect(await templateName(request, id)).toBe("Offline handbook, renamed");
  expect(await patchEntries(request, id)).toHaveLength(1);
  // The resend was the same request with the same key.
  expect(patches).toHaveLength(2);
  const [first, resend] = patches;
  expect(await resend!.headerValue("idempotency-key")).toBe(await first!.headerValue("idempotency-key"));
  expect(await first!.headerValue("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
  expect(resend!.postData()).toBe(first!.postData());
});

test("a save whose answer was lost is sent again with its key and shows the first answer; it is written once", async ({
  page,
  request,
  watch,
}) => {
  const { id, form, patches } = await openEditor(page, request, "lost");
  watch.expectError(/net::ERR_|Failed to load resource/);
  // The first PATCH reaches the server and is done; its answer never reaches the page.
  let lost = false;
  await page.route(`**${templatePath(id)}`, async (route) => {
    if (route.request().method() !== "PATCH" || lost) return route.fallback();
    lost = true;
    const answer = await route.fetch();
    expect(answer.status()).toBe(200);
    await route.abort("connectionreset");
  });

  await form.getByLabel("Name").fill("Offline handbook, answer lost");
  const resent = page.waitForResponse((r) => r.request().method() === "PATCH" && new URL(r.url()).pathname === templatePath(id));
  await form.getByRole("button", { name: "Save changes" }).click();
  const replay = await resent;
  await expect(form.getByRole("status").filter({ hasText: "Changes saved." })).toBeVisible({ timeout: 30_000 });
  await expect(form.getByRole("alert")).toHaveCount(0);

  // The resend got the first answer again (CONTRACT §18), so the write was done once.
  expect(replay.status()).toBe(200);
  expect(await replay.headerValue("idempotent-replayed")).toBe("true");
  expect(lost).toBe(true);
  expect(patches).toHaveLength(2);
  expect(await patches[1]!.headerValue("idempotency-key")).toBe(await patches[0]!.headerValue("idempotency-key"));
  expect(await templateName(request, id)).toBe("Offline handbook, answer lost");
  expect(await patchEntries(request, id)).toHaveLength(1);
  await expect(form.getByLabel("Name")).toHaveValue("Offline handbook, answer lost");
});

test("a waiting save cancelled, at the form or on the banner, is never written", async ({ page, request, watch }) => {
  const { id, form, patches } = await openEditor(page, request, "cancel");
  const serverBack = await serverDown(page, watch);
  const waiting = form.getByTestId("save-waiting");
  const banner = page.getByTestId("server-unreachable");

  // Cancelled at the form.
  await form.getByLabel("Name").fill("Offline handbook, never saved");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(waiting).toContainText("Saving when the server is back…");
  await waiting.getByRole("button", { name: "Cancel saving" }).click();
  await expect(form.getByRole("alert")).toHaveText("Save cancelled: it was not sent again.");
  await expect(waiting).toBeHidden();
  await expect(form.getByRole("button", { name: "Save changes" })).toBeEnabled();
  // What was typed is still there, to save later.
  await expect(form.getByLabel("Name")).toHaveValue("Offline handbook, never saved");
  await expect(banner).toContainText("Pages load as soon as the server answers");

  // Cancelled on the banner.
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(waiting).toBeVisible();
  await banner.getByRole("button", { name: "Cancel the save" }).click();
  await expect(form.getByRole("alert")).toHaveText("Save cancelled: it was not sent again.");

  await serverBack();
  await expect(banner).toBeHidden({ timeout: 30_000 });
  // Give a resend, if any were coming, the time to arrive.
  await page.waitForTimeout(2000);
  expect(patches).toHaveLength(2);
  expect(await templateName(request, id)).toBe("Offline handbook");
  expect(await patchEntries(request, id)).toHaveLength(0);
});

test("a delete confirmed while the server is out of reach waits in its dialog: Cancel sends nothing; confirmed, it is done once the server answers", async ({
  page,
  request,
  watch,
}) => {
  const { id } = await openEditor(page, request, "delete");
  const deletes: Request[] = [];
  page.on("request", (sent) => {
    if (sent.method() === "DELETE" && new URL(sent.url()).pathname === templatePath(id)) deletes.push(sent);
  });
  const dialog = page.getByRole("dialog", { name: "Delete template?" });
  const banner = page.getByTestId("server-unreachable");

  // Confirmed, waiting, then the dialog cancelled: "do not do it", so it is never sent again.
  let serverBack = await serverDown(page, watch);
  await page.getByRole("button", { name: "Delete template" }).click();
  await dialog.getByRole("button", { name: "Delete template", exact: true }).click();
  await expect(dialog.getByTestId("save-waiting")).toContainText("Saving when the server is back…");
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(dialog).toBeHidden();
  await serverBack();
  await expect(banner).toBeHidden({ timeout: 30_000 });
  await page.waitForTimeout(2000);
  expect(deletes).toHaveLength(1);
  expect((await request.get(templatePath(id), { headers: admin })).status()).toBe(200);

  // Confirmed while out of reach and left to wait: deleted once the server answers, with the first try's key.
  serverBack = await serverDown(page, watch);
  await page.getByRole("button", { name: "Delete template" }).click();
  await expect(dialog.getByTestId("save-waiting")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Delete template", exact: true }).click();
  await expect(dialog.getByTestId("save-waiting")).toBeVisible();
  await serverBack();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  expect((await request.get(templatePath(id), { headers: admin })).status()).toBe(404);
  expect(deletes).toHaveLength(3);
  expect(await deletes[2]!.headerValue("idempotency-key")).toBe(await deletes[1]!.headerValue("idempotency-key"));
});

/** Fails unless the two boxes do not overlap (once the page has moved, if it moves). */
async function expectApart(notice: Locator, typed: Locator) {
  await expect
    .poll(async () => {
      const [a, b] = [await notice.boundingBox(), await typed.boundingBox()];
      if (!a || !b) return "not both shown";
      const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      return apart
        ? "apart"
        : `overlapping: the notice from ${Math.round(a.y)} to ${Math.round(a.y + a.height)} px, the field from ${Math.round(b.y)}`;
    })
    .toBe("apart");
}

test("the banner takes its own place at the top of the page and never covers the field or line being typed in", async ({
  page,
  request,
  watch,
}) => {
  const { form } = await openEditor(page, request, "cover");
  await serverDown(page, watch);
  const banner = page.getByTestId("server-unreachable");

  // Typing in the name, at the top of the page where the banner shows, when the connection goes.
  const name = form.getByLabel("Name");
  await name.click();
  await name.pressSequentially(", offline");
  await page.evaluate(() => window.dispatchEvent(new Event("offline")));
  await expect(banner).toBeVisible();
  await expect(name).toBeFocused();
  await expectApart(banner, name);
  await name.pressSequentially(" and typed on");
  await expectApart(banner, name);
  await expect(name).toHaveValue("Offline handbook, offline and typed on");
  await screenshotBoth(page, "offline-banner");

  // The page scrolled so the manifest editor's first line sits where the banner stays in view:
  // typing on that line moves the page so the line shows below the banner.
  const editor = page.getByRole("textbox", { name: "Manifest (JSON)" });
  await editor.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - 60));
  await editor.focus();
  await page.keyboard.press("Control+Home");
  await page.keyboard.type(" ");
  await expectApart(banner, editor.locator(".cm-activeLine"));
  await page.keyboard.press("Enter");
  await page.keyboard.type('"typed": "offline",');
  await expectApart(banner, editor.locator(".cm-activeLine"));
  await expect(editor.locator(".cm-activeLine")).toContainText('"typed": "offline",');

  // On a phone too, where the banner is taller.
  await page.setViewportSize(MOBILE);
  await name.focus();
  await page.keyboard.press("End");
  await page.keyboard.type("!");
  await expectApart(banner, name);
  await expect(name).toHaveValue("Offline handbook, offline and typed on!");
});
