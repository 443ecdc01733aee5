import { type APIRequestContext, request as apiRequest, type Locator, type Page } from "@playwright/test";
import { type Receiver, startReceiver, verifyDelivery } from "../tests/support/webhook-receiver";
import { ADMIN_HEADERS, createFreshUser, deleteIfPresent } from "./support/api";
import { consoleNav, pageHeading, signIn } from "./support/console";
import { E2E_BASE_URL } from "./support/env";
import { expect, screenshotBoth, test } from "./support/fixtures";

// Issue 37, the console's webhooks: member wren adds one (two events chosen, the secret shown once
// with how to verify it), pings it and sees the delivery; her receiver (node:http on 127.0.0.1,
// which the e2e server allows: WEBHOOK_ALLOWED_HOSTS) then fails: the failed ping shows with its
// 500, its payload and answer one click away, and Home lists the webhook as failing; her receiver
// back, Redeliver sends the same event again and it succeeds. A rotated secret signs the next
// ping; pause, resume and remove. Every delivery is verified with the `standardwebhooks` package.
// Then admin ada edits a server webhook while another admin's program changes it: the conflict
// names who did, and her description merges onto their events.
test.describe.configure({ mode: "serial" });

const WREN = { id: "hooks-wren", password: "wren's long webhooks password" };
/** An admin who edits a server webhook in the console. */
const ADA = { id: "hooks-ada", password: "ada's long webhooks password" };
/** The description of the server webhook she edits. */
const OPS_RELAY = "Ops relay";
const PATH = "/wren";
let receiver: Receiver;
let admin: APIRequestContext;

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test.beforeAll(async () => {
  receiver = await startReceiver();
  admin = await apiRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: ADMIN_HEADERS });
  await createFreshUser(admin, { id: WREN.id, display_name: "Wren", password: WREN.password });
});

// Her webhooks and their deliveries go with her.
test.afterAll(async () => {
  if (admin) {
    for (const user of [WREN, ADA]) await deleteIfPresent(admin, `/ext/svc/admin/users/${user.id}`);
    // The server's webhook outlives its editor: removed here should its test have stopped midway.
    const serverWebhooks = (await (await admin.get("/ext/svc/admin/webhooks")).json()) as { id: string; description: string | null }[];
    for (const webhook of serverWebhooks.filter((w) => w.description?.startsWith(OPS_RELAY)))
      await deleteIfPresent(admin, `/ext/svc/admin/webhooks/${webhook.id}`);
  }
  await Promise.all([admin?.dispose(), receiver?.close()]);
});

/** The newest row of the delivery log. */
const newestDelivery = (page: Page) => page.getByTestId("delivery-row").first();

/** Expects a delivery row's status and the receiver's answer. */
async function expectDelivery(row: Locator, status: string, response: string) {
  await expect(row.getByTestId("delivery-status")).toHaveText(status);
  await expect(row.getByTestId("delivery-response")).toHaveText(response);
}

test("add a webhook, ping it, see a delivery fail, redeliver it; rotate, pause, remove", async ({ page }) => {
  await signIn(page, WREN.id, WREN.password);
  await consoleNav(page).getByRole("link", { name: "Webhooks", exact: true }).click();
  await expect(pageHeading(page, "Webhooks")).toBeVisible();
  await expect(page.getByText("No webhooks yet")).toBeVisible();

  // Added: two events chosen from their groups, each with what it means; the admin-only ones are not offered.
  await page.getByRole("button", { name: "Add webhook" }).click();
  const add = page.getByRole("dialog", { name: "Add a webhook" });
  await add.getByLabel("URL").fill(receiver.url(PATH));
  await add.getByLabel("Description").fill("Chat relay");
  await add.getByRole("radio", { name: "Only the events I choose" }).check();
  await expect(add.getByRole("group", { name: "Server" })).toHaveCount(0);
  await add.getByRole("checkbox", { name: "bank.created" }).check();
  await add.getByRole("checkbox", { name: "rollout.completed" }).check();
  await add.getByRole("button", { name: "Add webhook" }).click();
  // The secret, once, with how a receiver checks a delivery; the dialog closes once it is kept.
  const secret = (await add.getByLabel("Webhook secret").textContent()) ?? "";
  expect(secret).toMatch(/^whsec_/);
  await expect(add.getByTestId("verify-snippet")).toContainText("webhook.verify(body, headers)");
  await add.getByRole("checkbox", { name: "I have copied the secret and stored it safely" }).check();
  await add.getByRole("button", { name: "Done" }).click();
  await expect(add).toBeHidden();

  const row = page.getByTestId("webhooks-table").getByRole("row").filter({ hasText: "Chat relay" });
  await expect(row).toContainText("bank.created, rollout.completed");
  await row.getByRole("link", { name: receiver.url(PATH), exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Webhook to 127\.0\.0\.1:/ })).toBeVisible();
  await expect(page.getByText("No deliveries yet")).toBeVisible();

  // Ping: delivered at once, signed with her secret.
  await page.getByRole("button", { name: "Ping", exact: true }).click();
  await expect(page.getByTestId("ping-outcome")).toHaveText(/^Ping delivered: answered 204 in \d+ ms\.$/);
  await expectDelivery(newestDelivery(page), "succeeded", "204");
  expect(receiver.at(PATH)).toHaveLength(1);
  expect(verifyDelivery(secret, receiver.at(PATH)[0]!)).toMatchObject({ type: "webhook.ping" });

  // Her receiver fails: the failed ping, its payload and the answer one click away.
  receiver.answer(PATH, 500);
  await page.getByRole("button", { name: "Ping", exact: true }).click();
  await expect(page.getByTestId("ping-outcome")).toContainText("Ping failed");
  const failed = newestDelivery(page);
  await expectDelivery(failed, "failed", "500");
  await page.getByRole("button", { name: "Details of webhook.ping, attempt 1" }).first().click();
  const details = page.getByRole("dialog", { name: "Delivery of webhook.ping, attempt 1" });
  await expect(details.getByTestId("delivery-payload")).toContainText('"type": "webhook.ping"');
  await expect(details.getByTestId("delivery-response-body")).toHaveText("no: 500");
  await details.getByRole("button", { name: "Close" }).click();
  await expect(details).toBeHidden();

  // Home lists it as failing, and leads back to its deliveries.
  await consoleNav(page).getByRole("link", { name: "Home", exact: true }).click();
  const failing = page.getByTestId("home-webhooks");
  await expect(failing.getByRole("listitem")).toContainText("Every delivery has failed since");
  await failing.getByRole("link", { name: receiver.url(PATH) }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Webhook to 127\.0\.0\.1:/ })).toBeVisible();

  // Back up, Redeliver sends the same event again (the same webhook-id), and it succeeds.
  receiver.answer(PATH, 204);
  await newestDelivery(page).getByRole("button", { name: "Redeliver webhook.ping, attempt 1" }).click();
  await expect(newestDelivery(page).getByRole("rowheader")).toContainText("attempt 2");
  await expectDelivery(newestDelivery(page), "succeeded", "204");
  const [, second, third] = receiver.at(PATH);
  expect(third!.headers["webhook-id"]).toBe(second!.headers["webhook-id"]);
  expect(verifyDelivery(secret, third!)).toMatchObject({ type: "webhook.ping" });
  await expect(page.getByTestId("webhook-summary").getByTestId("webhook-status")).toHaveText("active");
  await screenshotBoth(page, "webhook-deliveries");

  // A new secret, copied by its button, signs the next ping (the old one still does, for a day).
  await page.getByRole("button", { name: /^Rotate the secret of webhook / }).click();
  const rotate = page.getByRole("dialog", { name: "Rotate the secret?" });
  await rotate.getByRole("button", { name: "Rotate secret" }).click();
  await rotate.getByRole("button", { name: "Copy secret" }).click();
  const rotated = await page.evaluate(() => navigator.clipboard.readText());
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(secret);
  await rotate.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("webhook-summary")).toContainText("the previous one signs as well until");
  await page.getByRole("button", { name: "Ping", exact: true }).click();
  await expect(page.getByTestId("ping-outcome")).toHaveText(/^Ping delivered/);
  expect(verifyDelivery(rotated, receiver.at(PATH).at(-1)!)).toMatchObject({ type: "webhook.ping" });

  // Paused and resumed, then removed (asked first): the list is empty again.
  const status = page.getByTestId("webhook-summary").getByTestId("webhook-status");
  await page.getByRole("button", { name: /^Pause webhook / }).click();
  await expect(status).toHaveText("paused");
  await page.getByRole("button", { name: /^Resume webhook / }).click();
  await expect(status).toHaveText("active");
  await page.getByRole("button", { name: /^Remove webhook / }).click();
  await page.getByRole("dialog", { name: "Remove webhook?" }).getByRole("button", { name: "Remove webhook" }).click();
  await expect(pageHeading(page, "Webhooks")).toBeVisible();
  await expect(page.getByText("No webhooks yet")).toBeVisible();
});

test("an admin edits a server webhook while another admin changes its events: the conflict names who, and the fields merge", async ({
  page,
  watch,
}) => {
  watch.expectError(/ → 412|status of 412 /);
  await createFreshUser(admin, { id: ADA.id, display_name: "Ada", password: ADA.password, role: "admin" });
  const url = receiver.url("/ops");
  const created = await admin.post("/ext/svc/admin/webhooks", { data: { url, events: ["bank.created"], description: OPS_RELAY } });
  expect(created.status()).toBe(201);
  const webhookPath = `/ext/svc/admin/webhooks/${((await created.json()) as { id: string }).id}`;

  await signIn(page, ADA.id, ADA.password);
  await page.goto("/admin/webhooks");
  await page.getByRole("button", { name: `Edit webhook ${url}` }).click();
  const dialog = page.getByRole("dialog", { name: "Edit webhook" });
  await expect(dialog.getByLabel("Description")).toHaveValue(OPS_RELAY);

  // Meanwhile the bootstrap admin's program subscribes it to deleted banks too.
  expect((await admin.patch(webhookPath, { data: { events: ["bank.created", "bank.deleted"] } })).status()).toBe(200);
  await dialog.getByLabel("Description").fill("Ops relay, on call");
  await dialog.getByRole("button", { name: "Save webhook" }).click();
  const conflict = dialog.getByTestId("edit-conflict");
  await expect(conflict).toContainText("Someone else has updated this webhook");
  await expect(conflict.getByTestId("edit-conflict-author")).toContainText("admin");
  await expect(conflict.getByTestId("edit-conflict-changes")).toContainText("Events");
  await expect(dialog.getByLabel("Description")).toHaveValue("Ops relay, on call");

  await conflict.getByRole("button", { name: "Merge my changes onto theirs" }).click();
  await expect(conflict).toBeHidden();
  await expect(dialog.getByRole("checkbox", { name: "bank.deleted" })).toBeChecked();
  await expect(dialog.getByLabel("Description")).toHaveValue("Ops relay, on call");
  await dialog.getByRole("button", { name: "Save webhook" }).click();
  await expect(dialog).toBeHidden();
  const stored = (await (await admin.get(webhookPath)).json()) as { description: string; events: string[] };
  expect(stored).toMatchObject({ description: "Ops relay, on call", events: ["bank.created", "bank.deleted"] });
});
