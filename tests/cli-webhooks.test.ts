import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, useTestApp } from "./support/app";
import { runCli } from "./support/cli-process";
import { type ServedApp, serveApp } from "./support/http-app";
import { verifyDelivery } from "./support/webhook-receiver";
import { useWebhooks } from "./support/webhooks";

// `bank-templates webhooks …` (CONTRACT §20, issue 37): the real bin over HTTP, with a receiver.
const t = useTestApp({ WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" });
const hooks = useWebhooks(t);
let app: ServedApp;
let gus: Client;

beforeAll(async () => {
  app = await serveApp();
  gus = await t.user("gus");
});

afterAll(() => app?.close());

const cli = (client: Client, ...args: string[]) =>
  runCli(args, { ...process.env, NO_COLOR: "1", BANK_TEMPLATES_URL: app.url, BANK_TEMPLATES_API_KEY: client.token! });

const json = async (client: Client, ...args: string[]) => {
  const run = await cli(client, "--json", ...args);
  return { code: run.code, stderr: run.stderr, body: JSON.parse(run.stdout) };
};

describe("webhooks", () => {
  it("add prints the secret once; list, ping, deliveries, redeliver and remove work on it", async () => {
    hooks.receiver.answer("/cli", 500, 204);
    const add = await cli(
      gus,
      "webhooks",
      "add",
      hooks.receiver.url("/cli"),
      "--event",
      "template.updated",
      "bank.behind",
      "--description",
      "chat",
    );
    expect(add.code, add.stderr).toBe(0);
    const secret = add.stdout.trim();
    expect(secret).toMatch(/^whsec_/);
    expect(add.stderr).toMatch(/shown only this once/);

    const list = await json(gus, "webhooks", "list");
    expect(list.body).toHaveLength(1);
    const [hook] = list.body;
    expect(hook).toMatchObject({ events: ["template.updated", "bank.behind"], description: "chat", active: true });

    const failedPing = await cli(gus, "webhooks", "ping", hook.id);
    expect(failedPing.code).toBe(1);
    expect(failedPing.stdout).toMatch(/failed 500 in \d+ ms \(attempt 1\): The receiver answered 500 Internal Server Error\./);
    expect(verifyDelivery(secret, hooks.receiver.at("/cli")[0]!)).toMatchObject({ type: "webhook.ping" });

    const log = await json(gus, "webhooks", "deliveries", hook.id, "--status", "failed");
    expect(log.body.deliveries).toHaveLength(1);
    const again = await json(gus, "webhooks", "redeliver", hook.id, log.body.deliveries[0].id);
    expect(again.body).toMatchObject({ status: "pending", attempt: 2 });
    expect(await hooks.worker().runDue()).toBe(1);
    const table = await cli(gus, "webhooks", "deliveries", hook.id);
    expect(table.stdout.split("\n")[1]).toMatch(/webhook\.ping\s+2\s+succeeded\s+204/);

    expect((await json(gus, "webhooks", "remove", hook.id)).body).toEqual({ id: hook.id, removed: true });
    expect((await json(gus, "webhooks", "list")).body).toEqual([]);
  });

  it("server webhooks with --scope server (admins); an unknown event type is a usage error", async () => {
    const add = await json(t.admin, "webhooks", "add", hooks.receiver.url("/cli-admin"), "--event", "audit.entry", "--scope", "server");
    expect(add.code, add.stderr).toBe(0);
    expect(add.body).toMatchObject({ events: ["audit.entry"], secret: expect.stringMatching(/^whsec_/) });
    expect((await cli(gus, "webhooks", "list", "--scope", "server")).code).toBe(4);
    // A user's own webhook cannot have the admin webhooks' types: the API says where.
    const refused = await cli(gus, "webhooks", "add", hooks.receiver.url("/x"), "--event", "audit.entry");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/at events\[0\]: audit\.entry is sent to admin webhooks only/);
    expect((await cli(gus, "webhooks", "add", hooks.receiver.url("/x"), "--event", "bank.exploded")).code).toBe(2);
    const rotated = await json(t.admin, "webhooks", "rotate-secret", add.body.id, "--scope", "server");
    expect(rotated.body.secret).not.toBe(add.body.secret);
    expect((await json(t.admin, "webhooks", "remove", add.body.id, "--scope", "server")).code).toBe(0);
  });
});
