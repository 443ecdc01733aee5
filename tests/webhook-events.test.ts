import type { ServerResponse } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { type DeliveredEventType, WEBHOOK_EVENT_BODIES } from "@/lib/contracts/webhooks/payloads";
import { noticeExpiringKeys } from "@/lib/services/identity/api-keys";
import { refreshAllUpdateStatuses, schedulerContext } from "@/lib/services/templates/scheduled-check";
import { type Client, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";
import { verifyDelivery } from "./support/webhook-receiver";
import { useWebhooks } from "./support/webhooks";

// CONTRACT §20: each event type, produced by its cause, with its payload; sent to those who may read it.
const t = useTestApp({ WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" });
const market = useMarketplace(t);
const hooks = useWebhooks(t);
let dora: Client;
let eli: Client;

beforeAll(async () => {
  dora = await t.user("dora");
  eli = await t.user("eli");
});

interface Sent {
  type: string;
  timestamp: string;
  data: any;
}

/**
 * Runs the delivery worker and answers the events the receiver got at `path` since the last call
 * for it, each verified with `secret` by the standardwebhooks package. One at a time, so they come
 * in the order they were recorded (several at once may arrive in any order).
 */
function inbox(path: string, secret: string) {
  let seen = 0;
  return async (): Promise<Sent[]> => {
    await hooks.worker({ concurrency: 1 }).runDue();
    const got = hooks.receiver.at(path).slice(seen);
    seen += got.length;
    return got.map((delivery) => {
      const sent = verifyDelivery(secret, delivery) as Sent;
      // Exactly the body the OpenAPI document's `webhooks` describes for its type: no field more or less.
      expect(WEBHOOK_EVENT_BODIES[sent.type as DeliveredEventType].body.parse(sent), sent.type).toEqual(sent);
      return sent;
    });
  };
}

/** A webhook of `client` (`me`) or the server's (`admin`) on `events`, and its inbox. */
async function subscribe(client: Client, scope: "me" | "admin", path: string, events: string[] = ["*"]) {
  const hook = await hooks.add(client, scope, path, events);
  return inbox(path, hook.secret);
}

const types = (events: Sent[]) => events.map((event) => event.type);
const T = "/ext/svc/me/templates";

describe("template, bank and policy events of a user's own resources", () => {
  it("are sent to their owner's webhooks with the resource as the API shows it, to nobody else's", async () => {
    const audit = await subscribe(t.admin, "admin", "/audit", ["audit.entry"]);
    const doras = await subscribe(dora, "me", "/dora");
    const elis = await subscribe(eli, "me", "/eli");

    expect((await dora.post(T, { id: "tpl", name: "Tpl", manifest: manifest() })).status).toBe(200);
    const created = await dora.post("/ext/svc/banks", { bank_id: "dora-bank", template: "personal/tpl" });
    expect(created.body.bank_created).toBe(true);
    const [bankCreated] = await doras();
    expect(bankCreated).toMatchObject({ type: "bank.created", data: (await dora.get("/ext/svc/banks/dora-bank")).body });
    expect(Date.parse(bankCreated!.timestamp)).toBeGreaterThan(Date.now() - 60_000);

    const patched = await dora.patch(`${T}/tpl`, { description: "Edited" });
    const afterPatch = await doras();
    expect(types(afterPatch)).toEqual(["template.updated", "bank.behind"]);
    expect(afterPatch[0]!.data).toEqual(patched.body);
    const listed = (await dora.get("/ext/svc/banks")).body.banks.find((b: { bank_id: string }) => b.bank_id === "dora-bank");
    expect(afterPatch[1]!.data).toEqual(listed);
    expect(listed.behind).toBe(true);
    // A PATCH that changes nothing is no event; neither is a bank that was behind already.
    await dora.patch(`${T}/tpl`, {});
    await dora.patch(`${T}/tpl`, { description: "Edited again" });
    expect(types(await doras())).toEqual(["template.updated"]);

    const rollout = await dora.post("/ext/svc/banks/rollout", { template: "personal/tpl" });
    expect(rollout.body.results).toHaveLength(1);
    const afterRollout = await doras();
    expect(types(afterRollout)).toEqual(["bank.updated", "rollout.completed"]);
    expect(afterRollout[0]!.data).toEqual((await dora.get("/ext/svc/banks/dora-bank")).body);
    expect(afterRollout[1]!.data).toEqual({ template: "personal/tpl", results: rollout.body.results });
    // A dry run changes nothing and tells nothing.
    await dora.post("/ext/svc/banks/rollout?dry_run=true", { template: "personal/tpl", bank_ids: ["dora-bank"] });
    expect(await doras()).toEqual([]);

    const rolledBack = await dora.post(`${T}/tpl/rollback`, { version: 1 });
    const afterRollback = await doras();
    expect(types(afterRollback)).toEqual(["template.rolled_back", "bank.behind"]);
    expect(afterRollback[0]!.data).toEqual(rolledBack.body);

    const document = { version: "2026-03-24", default_strategy: "recall" };
    const put = await dora.put("/ext/svc/banks/dora-bank/policy", { document });
    expect(put.status).toBe(200);
    await dora.put("/ext/svc/banks/dora-bank/policy", { document });
    await dora.delete("/ext/svc/banks/dora-bank/policy");
    expect(await doras()).toEqual([
      expect.objectContaining({ type: "policy.changed", data: put.body }),
      expect.objectContaining({ type: "policy.changed", data: { bank_id: "dora-bank", document: null } }),
    ]);

    const bank = (await dora.get("/ext/svc/banks/dora-bank")).body;
    await dora.delete("/ext/svc/banks/dora-bank");
    const template = (await dora.get(`${T}/tpl`)).body;
    await dora.delete(`${T}/tpl`);
    expect(await doras()).toEqual([
      expect.objectContaining({ type: "bank.deleted", data: bank }),
      expect.objectContaining({ type: "template.deleted", data: template }),
    ]);

    expect(await elis()).toEqual([]);
    // Admin webhooks on audit.entry had every write, each as the audit log shows it.
    const entries = await audit();
    const log = (await t.admin.get("/ext/svc/admin/audit?actor=dora&limit=100")).body.entries.reverse();
    expect(entries.map((event) => event.data).filter((entry) => entry.actor.principal_id === "dora")).toEqual(log);
    expect(new Set(types(entries))).toEqual(new Set(["audit.entry"]));
  });

  it("of a server template reach every user's webhooks; of a bank without an owner only admins'", async () => {
    const doras = await subscribe(dora, "me", "/dora-server", ["template.updated", "template.deleted", "bank.deleted"]);
    const elis = await subscribe(eli, "me", "/eli-server", ["template.updated"]);
    const admins = await subscribe(t.admin, "admin", "/admin-server", ["template.updated", "bank.created"]);
    await t.admin.post("/ext/svc/admin/templates", { id: "shared", name: "Shared", manifest: manifest() });
    const patched = await t.admin.patch("/ext/svc/admin/templates/shared", { description: "For all" });
    for (const inboxOf of [doras, elis, admins])
      expect(await inboxOf()).toEqual([expect.objectContaining({ type: "template.updated", data: patched.body })]);

    // Dora's own template is hers alone, though admin webhooks hear of everything.
    await dora.post(T, { id: "mine", name: "Mine", manifest: manifest() });
    await dora.patch(`${T}/mine`, { description: "Mine only" });
    expect(types(await doras())).toEqual(["template.updated"]);
    expect(await elis()).toEqual([]);
    expect(types(await admins())).toEqual(["template.updated"]);

    // An admin's bank is not a member's to read.
    await t.admin.post("/ext/svc/banks", { bank_id: "admin-bank", template: "server/shared" });
    expect(types(await admins())).toEqual(["bank.created"]);
    await t.admin.delete("/ext/svc/banks/admin-bank");
    expect(await doras()).toEqual([]);
  });

  it("stop when their user is deactivated", async () => {
    const fay = await t.user("fay");
    const fays = await subscribe(fay, "me", "/fay");
    await fay.post(T, { id: "f", name: "F", manifest: manifest() });
    expect((await t.admin.patch("/ext/svc/admin/users/fay", { is_active: false })).status).toBe(200);
    await t.admin.patch("/ext/svc/admin/templates/shared", { description: "Fay is away" });
    expect(await fays()).toEqual([]);
  });
});

describe("events of checks and fetches", () => {
  it("template.update_available: once per new upstream revision, whoever checked (a user, the scheduler)", async () => {
    market.setFile("/ua/templates.json", catalog(catalogEntry("watched")));
    await dora.post("/ext/svc/me/template-sources", { url: `${market.url}/ua`, alias: "ua" });
    await dora.post(`${T}/watched/install`, { source_name: "ua" });
    const doras = await subscribe(dora, "me", "/dora-ua", ["template.update_available"]);
    const elis = await subscribe(eli, "me", "/eli-ua", ["template.update_available"]);
    expect((await dora.get(`${T}/watched/check-update`)).body.has_update).toBe(false);
    expect(await doras()).toEqual([]);

    market.setFile("/ua/templates.json", catalog(catalogEntry("watched", { description: "Upstream moved on" })));
    const check = await dora.get(`${T}/watched/check-update`);
    expect(check.body.has_update).toBe(true);
    const [available] = await doras();
    expect(available).toMatchObject({ type: "template.update_available", data: (await dora.get(`${T}/watched`)).body });
    expect(available!.data.latest_revision).toBe(check.body.latest_revision);
    // The same revision found again is no news.
    await dora.get(`${T}/watched/check-update`);
    await dora.post(`${T}/check-updates`);
    expect(await doras()).toEqual([]);

    // The scheduled check, of a server template: every user may read it.
    market.setFile("/ua-server/templates.json", catalog(catalogEntry("house")));
    await t.admin.post("/ext/svc/admin/template-sources", { url: `${market.url}/ua-server`, alias: "ua-server" });
    await t.admin.post("/ext/svc/admin/templates/house/install", { source_name: "ua-server" });
    market.setFile("/ua-server/templates.json", catalog(catalogEntry("house", { name: "House v2" })));
    market.setFile("/ua/templates.json", catalog(catalogEntry("watched", { description: "And again" })));
    await refreshAllUpdateStatuses(schedulerContext(t.app));
    expect(types(await doras()).sort()).toEqual(["template.update_available", "template.update_available"]);
    const [house] = await elis();
    expect(house).toMatchObject({ type: "template.update_available", data: { id: "house", scope: "server" } });
    expect(await elis()).toEqual([]);
  });

  it("source.fetch_failed: when a catalog that loaded stops loading, once until it loads again", async () => {
    market.setFile("/ff/templates.json", catalog(catalogEntry("a")));
    await dora.post("/ext/svc/me/template-sources", { url: `${market.url}/ff`, alias: "ff" });
    const doras = await subscribe(dora, "me", "/dora-ff", ["source.fetch_failed"]);
    const elis = await subscribe(eli, "me", "/eli-ff", ["source.fetch_failed"]);
    const browse = () => dora.get("/ext/svc/me/template-sources/ff/catalog?refresh=true");
    expect((await browse()).status).toBe(200);
    const down = (_req: unknown, res: ServerResponse) => res.writeHead(500).end("down");
    market.setHandler("/ff/templates.json", down);
    expect((await browse()).status).toBe(502);
    const [failed] = await doras();
    const source = (await dora.get("/ext/svc/me/template-sources/ff")).body;
    expect(failed).toMatchObject({ type: "source.fetch_failed", data: source });
    expect(source.catalog_error).toMatch(/answered 500/);
    expect((await browse()).status).toBe(502);
    expect(await doras()).toEqual([]);
    market.setFile("/ff/templates.json", catalog(catalogEntry("a")));
    expect((await browse()).status).toBe(200);
    market.setHandler("/ff/templates.json", down);
    expect((await browse()).status).toBe(502);
    expect(types(await doras())).toEqual(["source.fetch_failed"]);
    expect(await elis()).toEqual([]);
  });

  it("key.expiring: to admin webhooks, once per key, 7 days ahead", async () => {
    const admins = await subscribe(t.admin, "admin", "/keys", ["key.expiring"]);
    const doras = await subscribe(dora, "me", "/dora-keys");
    const soon = await t.admin.post("/ext/svc/admin/users/dora/api-keys", { description: "soon", expires_in_days: 3 });
    const later = await t.admin.post("/ext/svc/admin/users/dora/api-keys", { description: "later", expires_in_days: 30 });
    expect(await noticeExpiringKeys(t.app.db, new Date())).toBe(1);
    expect(await noticeExpiringKeys(t.app.db, new Date())).toBe(0);
    const { token: _token, ...key } = soon.body;
    expect(await admins()).toEqual([
      expect.objectContaining({ type: "key.expiring", data: { ...key, user_id: "dora", service_account_id: null } }),
    ]);
    expect(await noticeExpiringKeys(t.app.db, new Date(Date.now() + 24 * 24 * 3_600_000))).toBe(1);
    expect((await admins())[0]!.data.id).toBe(later.body.id);
    expect(types(await doras())).not.toContain("key.expiring");
  });
});
