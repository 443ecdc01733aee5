import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "@/db/client";
import { webhookDeliveries, webhookEvents } from "@/db/schema";
import { MAX_WEBHOOKS_PER_USER } from "@/lib/contracts/limits";
import { DISABLE_AFTER_FAILING_MS, RETRY_DELAYS_MS } from "@/lib/contracts/webhooks/events";
import { WEBHOOK_EVENT_BODIES } from "@/lib/contracts/webhooks/payloads";
import { auditFor } from "@/lib/services/audit/record";
import { callContext, withTransaction } from "@/lib/services/context";
import { ADMINS, recordEvent } from "@/lib/services/outbox/outbox";
import { pruneDeliveries } from "@/lib/services/webhooks/jobs";
import { type Client, useTestApp } from "./support/app";
import { freePort } from "./support/free-port";
import { verifyDelivery } from "./support/webhook-receiver";
import { useWebhooks } from "./support/webhooks";

// CONTRACT §20: webhooks, their secrets, and how deliveries go out (the events themselves: webhook-events.test.ts).
const t = useTestApp({ WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" });
const hooks = useWebhooks(t);
const HOUR = 3_600_000;
let ann: Client;
let ben: Client;

beforeAll(async () => {
  ann = await t.user("ann");
  ben = await t.user("ben");
});

/** What the admin webhooks of these tests receive: not the audit entries of the tests' own writes. */
const ONLY_UPDATES = ["template.updated", "template.deleted"];

/** Records an event for admin webhooks, as a change would (in its own transaction here). */
const adminEvent = (data: unknown) => recordEvent(t.app.db, { type: "template.updated", data, audience: ADMINS });

describe("webhooks as resources", () => {
  it("are added with a secret shown once, read, listed, changed with If-Match and removed", async () => {
    const created = await ann.post("/ext/svc/me/webhooks", {
      url: hooks.receiver.url("/crud"),
      events: ["template.updated", "bank.behind"],
      description: "chat",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: hooks.receiver.url("/crud"), events: ["template.updated", "bank.behind"], active: true });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(created.body.secret.slice(6), "base64")).toHaveLength(24);
    const path = `/ext/svc/me/webhooks/${created.body.id}`;
    const read = await ann.get(path);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty("secret");
    expect(read.text).not.toContain(created.body.secret.slice(6));
    expect((await ann.get("/ext/svc/me/webhooks")).body.map((w: { id: string }) => w.id)).toEqual([created.body.id]);

    const etag = read.headers.get("etag")!;
    expect((await ann.send("PATCH", path, { description: "stale" }, { "if-match": '"nope"' })).status).toBe(412);
    const paused = await ann.send("PATCH", path, { active: false, description: null }, { "if-match": etag });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ active: false, description: null });
    expect(paused.headers.get("etag")).not.toBe(etag);
    expect((await ann.send("DELETE", path, undefined, { "if-match": etag })).status).toBe(412);
    expect((await ann.delete(path)).status).toBe(204);
    expect((await ann.get(path)).status).toBe(404);
  });

  it("are a user's own: another user's answers 404, and the server's need an admin", async () => {
    const own = await hooks.add(ann, "me", "/own");
    expect((await ben.get(`/ext/svc/me/webhooks/${own.id}`)).status).toBe(404);
    expect((await ben.delete(`/ext/svc/me/webhooks/${own.id}`)).status).toBe(404);
    expect((await ben.post(`/ext/svc/me/webhooks/${own.id}/ping`)).status).toBe(404);
    expect((await ben.get("/ext/svc/me/webhooks")).body).toEqual([]);
    expect((await ann.get("/ext/svc/admin/webhooks")).status).toBe(403);
    expect((await t.admin.get(`/ext/svc/admin/webhooks/${own.id}`)).status).toBe(404);
  });

  it("refuse event types of admin webhooks for a user's own, and a list that repeats or mixes in *", async () => {
    const post = (events: unknown) => ann.post("/ext/svc/me/webhooks", { url: hooks.receiver.url("/x"), events });
    const adminOnly = await post(["template.updated", "audit.entry"]);
    expect(adminOnly.status).toBe(422);
    expect(adminOnly.body.errors).toEqual([{ path: "events[1]", message: "audit.entry is sent to admin webhooks only" }]);
    expect((await post(["bank.created", "bank.created"])).body.errors[0].path).toBe("events[1]");
    expect((await post(["*", "bank.created"])).status).toBe(422);
    expect((await post([])).status).toBe(422);
    expect((await post(["bank.exploded"])).status).toBe(422);
    const admin = await t.admin.post("/ext/svc/admin/webhooks", { url: hooks.receiver.url("/x"), events: ["audit.entry", "key.expiring"] });
    expect(admin.status).toBe(201);
    expect((await t.admin.delete(`/ext/svc/admin/webhooks/${admin.body.id}`)).status).toBe(204);
  });

  it("refuse a URL whose host is private or loopback unless WEBHOOK_ALLOWED_HOSTS lists it", async () => {
    const post = (url: string) => ann.post("/ext/svc/me/webhooks", { url, events: ["*"] });
    const loopbackByName = await post("http://localhost:9/hook");
    expect(loopbackByName.status).toBe(422);
    expect(loopbackByName.body.errors[0].path).toBe("url");
    expect(loopbackByName.body.errors[0].message).toMatch(
      /a loopback address, which is not allowed unless its host is listed in WEBHOOK_ALLOWED_HOSTS/,
    );
    expect((await post("http://10.1.2.3/hook")).body.errors[0].message).toMatch(/a private address/);
    expect((await post("http://[::1]:8080/hook")).status).toBe(422);
    expect((await post("http://169.254.169.254/latest")).status).toBe(422);
    expect((await post("ftp://example.com/hook")).status).toBe(422);
    // 127.0.0.1 is listed: any port of it may be used.
    const allowed = await post(hooks.receiver.url("/allowed"));
    expect(allowed.status).toBe(201);
    expect((await ann.delete(`/ext/svc/me/webhooks/${allowed.body.id}`)).status).toBe(204);
  });

  it("refuse a delivery whose host has come to resolve to a private address since", async () => {
    const answers: Record<string, string[]> = { "hooks.example": ["93.184.216.34"] };
    t.app.resolveHost = async (host) => answers[host] ?? [];
    try {
      const created = await ann.post("/ext/svc/me/webhooks", { url: "http://hooks.example/in", events: ["*"] });
      expect(created.status).toBe(201);
      answers["hooks.example"] = ["10.9.8.7"];
      const ping = await ann.post(`/ext/svc/me/webhooks/${created.body.id}/ping`);
      expect(ping.body).toMatchObject({ status: "failed", response_status: null, attempt: 1 });
      expect(ping.body.error).toMatch(
        /resolves to 10\.9\.8\.7, a private address, which is not allowed unless its host is listed in WEBHOOK_ALLOWED_HOSTS/,
      );
      expect((await ann.delete(`/ext/svc/me/webhooks/${created.body.id}`)).status).toBe(204);
    } finally {
      t.app.resolveHost = undefined;
    }
  });

  it(`hold at most ${MAX_WEBHOOKS_PER_USER} per user (409 limit-reached)`, async () => {
    const cleo = await t.user("cleo");
    for (let i = 0; i < MAX_WEBHOOKS_PER_USER; i++) await hooks.add(cleo, "me", `/limit-${i}`);
    const one = await cleo.post("/ext/svc/me/webhooks", { url: hooks.receiver.url("/one-more"), events: ["*"] });
    expect(one.status).toBe(409);
    expect(one.body.type).toBe("urn:bank-templates:problem:limit-reached");
    // Another user's count is their own.
    expect((await ben.post("/ext/svc/me/webhooks", { url: hooks.receiver.url("/ben"), events: ["*"] })).status).toBe(201);
    for (const w of (await ben.get("/ext/svc/me/webhooks")).body) await ben.delete(`/ext/svc/me/webhooks/${w.id}`);
  });

  it("keep no secret in an idempotent replay, nor in the audit log", async () => {
    const body = { url: hooks.receiver.url("/replay"), events: ["*"] };
    const first = await ann.send("POST", "/ext/svc/me/webhooks", body, { "idempotency-key": "webhook-1" });
    expect(first.status).toBe(201);
    const replay = await ann.send("POST", "/ext/svc/me/webhooks", body, { "idempotency-key": "webhook-1" });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.secret).toBeNull();
    expect(replay.body.id).toBe(first.body.id);
    const rotated = await ann.post(`/ext/svc/me/webhooks/${first.body.id}/rotate-secret`);
    const log = await t.admin.get(`/ext/svc/admin/audit?target_type=webhook&target=/ext/svc/me/webhooks/${first.body.id}`);
    expect(log.body.entries.map((e: { action: string }) => e.action)).toEqual(["webhook.rotate_secret", "webhook.create"]);
    for (const secret of [first.body.secret, rotated.body.secret]) expect(log.text).not.toContain(secret.slice(6));
    expect((await ann.delete(`/ext/svc/me/webhooks/${first.body.id}`)).status).toBe(204);
  });
});

describe("deliveries", () => {
  it("are signed per Standard Webhooks: a receiver verifies them with the standardwebhooks package", async () => {
    const hook = await hooks.add(t.admin, "admin", "/signed", ONLY_UPDATES);
    await adminEvent({ n: 1 });
    expect(await hooks.worker().runDue()).toBe(1);
    const [got] = hooks.receiver.at("/signed");
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(got!.headers["webhook-id"]).toMatch(/^msg_/);
    expect(Number(got!.headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -1);
    expect(verifyDelivery(hook.secret, got!, hooks.clock.now())).toEqual({
      type: "template.updated",
      timestamp: expect.any(String),
      data: { n: 1 },
    });
    expect(() => verifyDelivery(`whsec_${Buffer.alloc(24, 7).toString("base64")}`, got!, hooks.clock.now())).toThrow();
  });

  it("retry a failing receiver on the schedule; the same webhook-id each time, every attempt in the log", async () => {
    hooks.receiver.answer("/flaky", 500, 503, 200);
    const hook = await hooks.add(t.admin, "admin", "/flaky", ONLY_UPDATES);
    await adminEvent({ n: "flaky" });
    const worker = hooks.worker();
    expect(await worker.runDue()).toBe(1);
    // Not before its delay has passed.
    hooks.clock.advance(RETRY_DELAYS_MS[0] * 0.85);
    expect(await worker.runDue()).toBe(0);
    hooks.clock.advance(RETRY_DELAYS_MS[0] * 0.3);
    expect(await worker.runDue()).toBe(1);
    hooks.clock.advance(RETRY_DELAYS_MS[1] * 1.1);
    expect(await worker.runDue()).toBe(1);
    hooks.clock.advance(HOUR * 12);
    expect(await worker.runDue()).toBe(0);

    const got = hooks.receiver.at("/flaky");
    expect(got).toHaveLength(3);
    expect(new Set(got.map((d) => d.headers["webhook-id"])).size).toBe(1);
    for (const delivery of got)
      expect(verifyDelivery(hook.secret, delivery, Number(delivery.headers["webhook-timestamp"]) * 1000)).toBeTruthy();
    const log = await t.admin.get(`/ext/svc/admin/webhooks/${hook.id}/deliveries`);
    expect(log.body.deliveries.map((d: Record<string, unknown>) => [d.attempt, d.status, d.response_status])).toEqual([
      [3, "succeeded", 200],
      [2, "failed", 503],
      [1, "failed", 500],
    ]);
    expect(log.body.deliveries[1].error).toBe("The receiver answered 503 Service Unavailable.");
    expect(log.body.deliveries.every((d: { event_id: string }) => d.event_id === got[0]!.headers["webhook-id"])).toBe(true);
    expect((await t.admin.get(`/ext/svc/admin/webhooks/${hook.id}`)).body.failing_since).toBeNull();
  });

  it("give up after the last retry: 8 attempts, about 27.6 hours", async () => {
    hooks.receiver.answer("/dead", 500);
    const hook = await hooks.add(t.admin, "admin", "/dead", ONLY_UPDATES);
    await adminEvent({ n: "dead" });
    const worker = hooks.worker();
    let attempts = await worker.runDue();
    for (const delay of RETRY_DELAYS_MS) {
      hooks.clock.advance(delay * 1.1);
      attempts += await worker.runDue();
    }
    hooks.clock.advance(100 * HOUR);
    attempts += await worker.runDue();
    expect(attempts).toBe(RETRY_DELAYS_MS.length + 1);
    const log = (await t.admin.get(`/ext/svc/admin/webhooks/${hook.id}/deliveries?status=failed&limit=3`)).body;
    expect(log.deliveries.map((d: { attempt: number }) => d.attempt)).toEqual([8, 7, 6]);
    const next = (await t.admin.get(`/ext/svc/admin/webhooks/${hook.id}/deliveries?status=failed&limit=3&cursor=${log.next_cursor}`)).body;
    expect(next.deliveries.map((d: { attempt: number }) => d.attempt)).toEqual([5, 4, 3]);
    expect((await t.admin.get(`/ext/svc/admin/webhooks/${hook.id}/deliveries?cursor=${log.next_cursor}`)).status).toBe(422);
  });

  it("pause a webhook whose deliveries all failed for 5 days, saying why (simulated clock)", async () => {
    hooks.receiver.answer("/down", 502);
    const hook = await hooks.add(t.admin, "admin", "/down", ONLY_UPDATES);
    const worker = hooks.worker();
    const started = hooks.clock.now();
    // An event every 12 hours, each failing at once and on its retries.
    while (hooks.clock.now() - started < DISABLE_AFTER_FAILING_MS - HOUR) {
      await adminEvent({ at: hooks.clock.now() });
      await worker.runDue();
      expect((await t.admin.get(`/ext/svc/admin/webhooks/${hook.id}`)).body.active).toBe(true);
      hooks.clock.advance(12 * HOUR);
    }
    hooks.clock.advance(2 * HOUR);
    await adminEvent({ at: hooks.clock.now() });
    await worker.runDue();
    const paused = (await t.admin.get(`/ext/svc/admin/webhooks/${hook.id}`)).body;
    expect(paused.active).toBe(false);
    expect(Date.parse(paused.failing_since) - started).toBeLessThan(60_000);
    expect(paused.disabled_reason).toMatch(
      /^Paused by the server: every delivery failed from .+ the last with: The receiver answered 502 Bad Gateway\.$/,
    );

    // Paused: new events pass it by, and its retries wait.
    const before = hooks.receiver.at("/down").length;
    await adminEvent({ after: "paused" });
    hooks.clock.advance(24 * HOUR);
    expect(await worker.runDue()).toBe(0);
    expect(hooks.receiver.at("/down")).toHaveLength(before);

    // Resumed: the reason goes, and what was due goes out.
    hooks.receiver.answer("/down", 200);
    const resumed = await t.admin.patch(`/ext/svc/admin/webhooks/${hook.id}`, { active: true });
    expect(resumed.body).toMatchObject({ active: true, disabled_reason: null, failing_since: null });
    expect(await worker.runDue()).toBeGreaterThan(0);
  });

  it("never send an event whose transaction rolled back", async () => {
    await hooks.add(t.admin, "admin", "/rolled-back", ONLY_UPDATES);
    const before = await t.app.db.$count(webhookEvents);
    await expect(
      t.app.db.transaction(async (tx) => {
        await recordEvent(tx, { type: "template.deleted", data: { id: "gone" }, audience: ADMINS });
        throw new Error("the change failed after its event was recorded");
      }),
    ).rejects.toThrow("the change failed");
    // The same through an audit entry, as every write through the API records its events.
    const endpoint = {
      method: "DELETE",
      path: "/ext/svc/me/templates/{template_id}",
      summary: "",
      tag: "",
      access: "authenticated",
      status: 204,
      audit: { action: "template.delete" },
    } as const;
    const admin = { type: "user" as const, id: "admin", userId: "admin", role: "admin" as const, displayName: "admin" };
    const journal = auditFor(endpoint, admin, "r", { params: { template_id: "x" }, query: undefined, body: undefined })!;
    const ctx = callContext(t.app, { actor: admin, requestId: "r", signal: new AbortController().signal, audit: journal.using(t.app.db) });
    await expect(
      withTransaction(ctx, async (tx) => {
        const template = { id: "x", scope: "server", owner: null, updated_at: "2026-01-01T00:00:00.000Z" };
        await tx.audit.record({ action: "template.delete", target: { type: "template", id: "x" }, before: template, after: null });
        expect(await tx.db.$count(webhookEvents)).toBe(before + 1);
        throw new Error("rolled back after the audit entry");
      }),
    ).rejects.toThrow("rolled back");
    expect(await t.app.db.$count(webhookEvents)).toBe(before);
    expect(await hooks.worker().runDue()).toBe(0);
    expect(hooks.receiver.at("/rolled-back")).toEqual([]);
  });

  it("sign with both secrets for 24 hours after a rotation, then with the new one only", async () => {
    const hook = await hooks.add(t.admin, "admin", "/rotated", ONLY_UPDATES);
    const rotated = await t.admin.post(`/ext/svc/admin/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * HOUR);
    const worker = hooks.worker();
    await adminEvent({ n: "both" });
    await worker.runDue();
    const [both] = hooks.receiver.at("/rotated");
    expect(String(both!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifyDelivery(hook.secret, both!, hooks.clock.now())).toBeTruthy();
    expect(verifyDelivery(rotated.body.secret, both!, hooks.clock.now())).toBeTruthy();

    hooks.clock.advance(24 * HOUR + 60_000);
    await adminEvent({ n: "new only" });
    await worker.runDue();
    const [, late] = hooks.receiver.at("/rotated");
    expect(String(late!.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifyDelivery(rotated.body.secret, late!, hooks.clock.now())).toBeTruthy();
    expect(() => verifyDelivery(hook.secret, late!, hooks.clock.now())).toThrow("No matching signature found");
  });

  it("ping at once and answer the attempt, paused or not; a failed delivery can be sent again", async () => {
    hooks.receiver.answer("/ping", 418, 200);
    const hook = await hooks.add(ann, "me", "/ping");
    await ann.patch(`/ext/svc/me/webhooks/${hook.id}`, { active: false });
    const failed = await ann.post(`/ext/svc/me/webhooks/${hook.id}/ping`);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ type: "webhook.ping", attempt: 1, status: "failed", response_status: 418 });
    expect(failed.body.duration_ms).toBeGreaterThanOrEqual(0);
    const [ping] = hooks.receiver.at("/ping");
    const pinged = verifyDelivery(hook.secret, ping!);
    expect(pinged).toMatchObject({ type: "webhook.ping", data: { id: hook.id, active: false } });
    expect(WEBHOOK_EVENT_BODIES["webhook.ping"].body.parse(pinged)).toEqual(pinged);

    const detail = await ann.get(`/ext/svc/me/webhooks/${hook.id}/deliveries/${failed.body.id}`);
    expect(detail.body).toMatchObject({ id: failed.body.id, payload: { type: "webhook.ping" }, response_body: "no: 418" });

    const again = await ann.post(`/ext/svc/me/webhooks/${hook.id}/deliveries/${failed.body.id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ event_id: failed.body.event_id, attempt: 2, status: "pending" });
    expect(await hooks.worker().runDue()).toBe(1);
    const [, second] = hooks.receiver.at("/ping");
    expect(second!.headers["webhook-id"]).toBe(failed.body.event_id);
    const log = (await ann.get(`/ext/svc/me/webhooks/${hook.id}/deliveries`)).body.deliveries;
    expect(log.map((d: Record<string, unknown>) => [d.id === again.body.id, d.attempt, d.status])).toEqual([
      [true, 2, "succeeded"],
      [false, 1, "failed"],
    ]);
    expect((await ann.post(`/ext/svc/me/webhooks/${hook.id}/deliveries/dlv_nope/redeliver`)).status).toBe(404);
    expect((await ben.get(`/ext/svc/me/webhooks/${hook.id}/deliveries/${failed.body.id}`)).status).toBe(404);
  });

  it("go to no webhook removed meanwhile", async () => {
    const hook = await hooks.add(t.admin, "admin", "/removed", ONLY_UPDATES);
    await adminEvent({ n: "removed" });
    expect((await t.admin.delete(`/ext/svc/admin/webhooks/${hook.id}`)).status).toBe(204);
    expect(await t.app.db.$count(webhookDeliveries, eq(webhookDeliveries.webhookId, hook.id))).toBe(0);
    expect(await hooks.worker().runDue()).toBe(0);
    expect(hooks.receiver.at("/removed")).toEqual([]);
  });
});

describe("the README's receiver", () => {
  it("verifies a real delivery with standardwebhooks and refuses a forged one", async () => {
    const readme = readFileSync(path.join(__dirname, "..", "README.md"), "utf8");
    const code = /## Webhooks[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)![1]!;
    const port = await freePort();
    const dir = path.join(__dirname, "..", "node_modules", ".cache", "bank-templates");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "readme-receiver.mjs");
    writeFileSync(file, code.replace(".listen(8080)", `.listen(${port}, "127.0.0.1", () => console.log("listening"))`));
    const hook = await t.admin.post("/ext/svc/admin/webhooks", { url: `http://127.0.0.1:${port}/`, events: ONLY_UPDATES });
    const receiver = spawn(process.execPath, [file], { env: { ...process.env, WEBHOOK_SECRET: hook.body.secret } });
    let out = "";
    receiver.stdout.on("data", (chunk) => (out += chunk));
    try {
      await expect.poll(() => out).toContain("listening");
      await adminEvent({ from: "the README" });
      expect(await hooks.worker().runDue()).toBe(1);
      const log = (await t.admin.get(`/ext/svc/admin/webhooks/${hook.body.id}/deliveries`)).body.deliveries;
      expect(log[0]).toMatchObject({ status: "succeeded", response_status: 204 });
      await expect.poll(() => out).toMatch(/msg_\w+ template\.updated \{ from: 'the README' \}/);
      const forged = await fetch(`http://127.0.0.1:${port}/`, {
        method: "POST",
        headers: { "webhook-id": "msg_x", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA" },
        body: "{}",
      });
      expect(forged.status).toBe(400);
    } finally {
      receiver.kill();
      await t.admin.delete(`/ext/svc/admin/webhooks/${hook.body.id}`);
    }
  });
});

describe("the delivery worker of a server process", () => {
  it("sends what falls due by itself, and on stop gives back what it was sending, for another process to send", async () => {
    hooks.receiver.answer("/loop", 204);
    const loop = await hooks.add(t.admin, "admin", "/loop", ONLY_UPDATES);
    const worker = hooks.worker({ pollMs: 20 });
    worker.start();
    await adminEvent({ n: "loop" });
    await expect.poll(() => hooks.receiver.at("/loop").length).toBe(1);
    await worker.stop();
    await t.admin.delete(`/ext/svc/admin/webhooks/${loop.id}`);

    // A receiver that never answers: stop() cuts the attempt short and leaves it pending, unclaimed.
    const hang = await hooks.add(t.admin, "admin", "/hang", ONLY_UPDATES);
    hooks.receiver.holdUntilInFlight(1_000);
    const stopping = hooks.worker({ pollMs: 20 });
    stopping.start();
    await adminEvent({ n: "hang" });
    await expect.poll(() => hooks.receiver.at("/hang").length).toBe(1);
    await stopping.stop();
    const [left] = await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hang.id));
    expect(left).toMatchObject({ status: "pending", attempt: 1, claimedBy: null });
    hooks.receiver.holdUntilInFlight(0);
  });

  it("keeps the log of 30 days: older attempts go, then the events nothing refers to", async () => {
    const hook = await hooks.add(t.admin, "admin", "/old", ONLY_UPDATES);
    await adminEvent({ n: "old" });
    await hooks.worker().runDue();
    const [event] = await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id));
    expect(await pruneDeliveries(t.app.db, Date.now() + 29 * 24 * HOUR)).toBe(0);
    expect((await t.admin.get(`/ext/svc/admin/webhooks/${hook.id}/deliveries`)).body.deliveries).toHaveLength(1);
    expect(await pruneDeliveries(t.app.db, Date.now() + 31 * 24 * HOUR)).toBeGreaterThanOrEqual(2);
    expect(await t.app.db.$count(webhookEvents, eq(webhookEvents.id, event!.eventId))).toBe(0);
    expect((await t.admin.get(`/ext/svc/admin/webhooks/${hook.id}/deliveries`)).body.deliveries).toEqual([]);
  });
});

describe.runIf(process.env.TEST_DB === "postgres")("two server processes on one PostgreSQL database", () => {
  const handles: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const handle of handles) await handle.close();
  });

  it("deliver each of 200 events exactly once, sending side by side", async () => {
    const hook = await hooks.add(t.admin, "admin", "/pair", ONLY_UPDATES);
    for (let i = 0; i < 200; i++) await adminEvent({ i });
    // Each worker has a database client of its own, as each process has.
    const databases = [await openPostgres(t.databaseUrl!), await openPostgres(t.databaseUrl!)];
    handles.push(...databases);
    const workers = databases.map((database, i) => hooks.worker({ db: database.db, holder: `process-${i}`, concurrency: 8 }));
    // Answers wait until more attempts are in flight than one worker sends at once: both send.
    hooks.receiver.holdUntilInFlight(9);
    const sent = await Promise.all(workers.map((worker) => worker.runDue()));
    expect(sent[0]! + sent[1]!).toBe(200);
    expect(Math.min(...sent)).toBeGreaterThan(0);
    const got = hooks.receiver.at("/pair");
    expect(got).toHaveLength(200);
    expect(new Set(got.map((d) => d.headers["webhook-id"])).size).toBe(200);
    expect(new Set(got.map((d) => (JSON.parse(d.body) as { data: { i: number } }).data.i)).size).toBe(200);
    for (const delivery of got) verifyDelivery(hook.secret, delivery, hooks.clock.now());
  });
});
