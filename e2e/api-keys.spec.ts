import { ADMIN_HEADERS, apiCall, deleteIfPresent } from "./support/api";
import { consoleNav, pageHeading, signIn } from "./support/console";
import { expect, test } from "./support/fixtures";

// CONTRACT §18 in the console: a key made to expire and to only read, as the dialog makes it,
// is listed with its badge and date, and the API treats it so.
test.describe.configure({ mode: "serial" });

const USER = "kira";
const PASSWORD = "kira's long enough password";

test.beforeAll(async ({ request }) => {
  await deleteIfPresent(request, `/ext/svc/admin/users/${USER}`);
  await apiCall(request, "POST", "/ext/svc/admin/users", ADMIN_HEADERS, { id: USER, display_name: "Kira Holm", password: PASSWORD });
  // A key that runs out within the week, made through the API: the list warns about it.
  await apiCall(request, "POST", `/ext/svc/admin/users/${USER}/api-keys`, ADMIN_HEADERS, {
    description: "nearly done",
    expires_in_days: 3,
  });
});

// Later specs expect an empty server (Home lists keys about to expire): kira goes, with her keys.
test.afterAll(async ({ request }) => {
  await deleteIfPresent(request, `/ext/svc/admin/users/${USER}`);
});

test("kira creates a read-only key expiring in 30 days; the list shows it and the API refuses its writes", async ({ page, request }) => {
  await signIn(page, USER, PASSWORD);
  await consoleNav(page).getByRole("link", { name: "Account", exact: true }).click();
  await expect(pageHeading(page, "Account")).toBeVisible();
  const keys = page.getByTestId("api-keys-table");
  const nearlyDone = keys.getByRole("row").filter({ hasText: "nearly done" });
  await expect(nearlyDone).toContainText("expires in 3 days");

  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "New API key for you", exact: true });
  await dialog.getByLabel("Description").fill("dashboard");
  await expect(dialog.getByRole("combobox", { name: "Expires" })).toHaveValue("90 days");
  await dialog.getByRole("combobox", { name: "Expires" }).click();
  await page.getByRole("option", { name: "30 days", exact: true }).click();
  await dialog.getByLabel("Read-only").check();
  await dialog.getByRole("button", { name: "Create key" }).click();
  const token = (await dialog.getByTestId("new-token").getByLabel("New API key").innerText()).trim();
  await dialog.getByLabel("I have copied the key and stored it safely").check();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();

  // The list: the read-only badge, and the date the API gives, as this browser writes it.
  const bearer = { authorization: `Bearer ${token}` };
  const listed = await request.get("/ext/svc/me/api-keys", { headers: bearer });
  expect(listed.status()).toBe(200);
  const key = ((await listed.json()) as { description: string; scope: string; expires_at: string }[]).find(
    (k) => k.description === "dashboard",
  )!;
  expect(key.scope).toBe("read");
  const days = (Date.parse(key.expires_at) - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(29.9);
  expect(days).toBeLessThan(30.1);
  const shownDate = await page.evaluate(
    (iso) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso)),
    key.expires_at,
  );
  const row = keys.getByRole("row").filter({ hasText: "dashboard" });
  await expect(row).toContainText("read-only");
  await expect(row).toContainText(shownDate);
  await expect(row).not.toContainText("expires in");

  // The key reads, and is refused anything else.
  expect((await request.get("/ext/svc/me", { headers: bearer })).status()).toBe(200);
  const write = await request.post("/ext/svc/me/api-keys", { headers: bearer, data: { description: "sneaky" } });
  expect(write.status()).toBe(403);
  expect((await write.json()).type).toBe("urn:bank-templates:problem:key-read-only");
  await expect(keys.getByRole("row").filter({ hasText: "sneaky" })).toHaveCount(0);
});

test("a key whose answer was lost: the dialog says it was made and that its token cannot be shown again", async ({
  page,
  request,
  watch,
}) => {
  watch.expectError(/net::ERR_|Failed to load resource/);
  await signIn(page, USER, PASSWORD);
  await consoleNav(page).getByRole("link", { name: "Account", exact: true }).click();
  // The first create reaches the server and is done; its answer never reaches the page, and the
  // console's resend (same Idempotency-Key) gets it again without the token (CONTRACT §19).
  let lost = false;
  await page.route("**/ext/svc/me/api-keys", async (route) => {
    if (route.request().method() !== "POST" || lost) return route.fallback();
    lost = true;
    expect((await route.fetch()).status()).toBe(201);
    await route.abort("connectionreset");
  });
  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "New API key for you", exact: true });
  await dialog.getByLabel("Description").fill("answer lost");
  const resent = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/ext/svc/me/api-keys");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const replay = await resent;
  expect(await replay.headerValue("idempotent-replayed")).toBe("true");
  expect((await replay.json()).token).toBeNull();

  const notShown = dialog.getByTestId("token-not-shown");
  await expect(notShown).toContainText("The key was made; its token cannot be shown again");
  const [made] = (
    (await (await request.get(`/ext/svc/admin/users/${USER}/api-keys`, { headers: ADMIN_HEADERS })).json()) as {
      description: string;
      prefix: string;
    }[]
  ).filter((k) => k.description === "answer lost");
  await expect(notShown).toContainText(`Revoke the key starting with ${made!.prefix} in the list, and make a new key.`);
  await expect(dialog.getByTestId("new-token")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("api-keys-table").getByRole("row").filter({ hasText: "answer lost" })).toHaveCount(1);
});
