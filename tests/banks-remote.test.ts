import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Client, request, useTestApp } from "./support/app";
import { startFakeHindsight } from "./support/fake-hindsight";
import { manifest } from "./support/fixtures";
import { useFakeHindsight } from "./support/use-fake-hindsight";

// CONTRACT §8 remote store: with HINDSIGHT_API_URL, banks live in that server, checked here
// against a fake that validates every request against the reference shapes.
const t = useTestApp();
let alice: Client;
const API_KEY = "hindsight-secret-key";
const hindsight = useFakeHindsight(t, { apiKey: API_KEY, timeoutMs: 1000 });

beforeAll(async () => {
  alice = await t.user("alice");
  await alice.post("/ext/svc/me/templates", { id: "tpl", name: "Template", manifest: manifest() });
});

const createBank = (c: Client, bankId: string, dryRun = false) =>
  request("POST", `/ext/svc/banks${dryRun ? "?dry_run=true" : ""}`, { token: c.token, body: { bank_id: bankId, template: "tpl" } });

async function localBankRows() {
  const result = await t.app.db.execute(
    sql`select (select count(*) from banks) + (select count(*) from bank_mental_models) + (select count(*) from bank_directives) as n`,
  );
  const rows = (result as unknown as { rows?: { n: number }[] }).rows ?? (result as unknown as { n: number }[]);
  return Number(rows[0]!.n);
}

describe("remote bank store", () => {
  it("creates a new bank in Hindsight and relays its import result", async () => {
    const res = await createBank(alice, "remote-1");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      bank_id: "remote-1",
      template: "tpl",
      bank_created: true,
      import_result: {
        bank_id: "remote-1",
        config_applied: true,
        mental_models_created: ["open-questions", "decisions"],
        directives_created: ["Cite sources", "Be brief"],
        dry_run: false,
      },
    });
    expect(res.body.import_result.operation_ids).toHaveLength(2);
    expect(hindsight.banks.has("remote-1")).toBe(true);
    const importCall = hindsight.requests.find((r) => r.method === "POST");
    expect(importCall?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(importCall?.body).toEqual(manifest());
  });

  it("updates an existing bank (admin) with 200 and bank_created false", async () => {
    await t.admin.post("/ext/svc/admin/templates", { id: "tpl", name: "Server template", manifest: manifest() });
    const res = await request("POST", "/ext/svc/banks", { token: t.admin.token, body: { bank_id: "remote-1", template: "server/tpl" } });
    expect(res.status).toBe(200);
    expect(res.body.bank_created).toBe(false);
    expect(res.body.import_result.mental_models_updated).toEqual(["open-questions", "decisions"]);
  });

  it("refuses a member on a bank that already exists there (no owners are recorded)", async () => {
    expect((await createBank(alice, "remote-1")).status).toBe(403);
  });

  it("passes a dry run through and changes nothing", async () => {
    const res = await createBank(alice, "remote-dry", true);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      bank_created: false,
      import_result: { dry_run: true, mental_models_created: ["open-questions", "decisions"] },
    });
    expect(hindsight.requests.at(-1)?.query).toMatchObject({ dry_run: "true" });
    expect(hindsight.banks.has("remote-dry")).toBe(false);
  });

  it("answers 502 when Hindsight fails and 504 when it is slow", async () => {
    hindsight.setMode("fail");
    const failed = await createBank(alice, "remote-2");
    expect(failed.status).toBe(502);
    expect(failed.body.detail).toContain(hindsight.url);
    hindsight.setMode("slow", 2000);
    const slow = await createBank(alice, "remote-2");
    expect(slow.status).toBe(504);
    hindsight.setMode("ok");
    expect(hindsight.banks.has("remote-2")).toBe(false);
  });

  it("answers 502 when Hindsight is down", async () => {
    const down = await startFakeHindsight();
    const url = down.url;
    await down.close();
    t.app.config.hindsight = { url, apiKey: null, timeoutMs: 1000 };
    try {
      const res = await createBank(alice, "remote-3");
      expect(res.status).toBe(502);
      expect(res.body.detail).toContain(url);
      expect(res.text).not.toContain(API_KEY);
    } finally {
      t.app.config.hindsight = { url: hindsight.url, apiKey: API_KEY, timeoutMs: 1000 };
    }
  });

  it("lists the Hindsight banks for an admin: no owner, provenance from the newest import through us, Hindsight's timestamps", async () => {
    const stored = hindsight.banks.get("remote-1")!;
    const newest = (await t.admin.get("/ext/svc/banks/remote-1/history")).body.entries[0];
    // Timestamps as Python writes them (microseconds and an offset) come out as ISO ms Z; absent ones as null.
    const seeded = hindsight.addBank("remote-0", "Seeded elsewhere");
    seeded.createdAt = "2024-01-15T10:30:00.123456+02:00";
    seeded.updatedAt = undefined;
    try {
      const res = await t.admin.get("/ext/svc/banks");
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        banks: [
          {
            bank_id: "remote-0",
            name: "Seeded elsewhere",
            owner: null,
            created_at: "2024-01-15T08:30:00.123Z",
            updated_at: null,
            // Never imported through us.
            last_applied: null,
            behind: false,
            newest_version: null,
          },
          {
            bank_id: "remote-1",
            name: "remote-1",
            owner: null,
            created_at: stored.createdAt,
            updated_at: stored.updatedAt,
            // The admin's import of server/tpl, at its first version.
            last_applied: {
              template: "server/tpl",
              source_revision: null,
              template_version: 1,
              locally_modified: false,
              applied_at: newest.applied_at,
            },
            behind: false,
            newest_version: { version: 1, action: "create", restored_version: null },
          },
        ],
      });
    } finally {
      hindsight.banks.delete("remote-0");
    }
  });

  it("shows an admin a Hindsight bank with its config, mental models and directives as Hindsight stored them", async () => {
    const stored = hindsight.banks.get("remote-1")!;
    const res = await t.admin.get("/ext/svc/banks/remote-1");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      bank_id: "remote-1",
      name: "remote-1",
      owner: null,
      created_at: stored.createdAt,
      updated_at: stored.updatedAt,
      last_applied: expect.objectContaining({ template: "server/tpl", template_version: 1, locally_modified: false }),
      behind: false,
      newest_version: { version: 1, action: "create", restored_version: null },
      config: stored.config,
      // Manifest entries as Hindsight reports them: its defaults filled in.
      mental_models: [...stored.mentalModels.values()].map((m) => ({ ...m, tags: [] })),
      directives: [...stored.directives.values()].map((d) => ({ ...d, priority: 0, is_active: true, tags: [] })),
      has_policy: false,
      locally_modified: false,
    });
    // The fake stored what the template said: the answer is the template's own content.
    expect(res.body.config).toEqual(manifest().bank);
    expect(res.body.mental_models.map((m: { id: string }) => m.id)).toEqual(["open-questions", "decisions"]);
    expect(res.body.directives.map((d: { name: string }) => d.name)).toEqual(["Cite sources", "Be brief"]);
    expect((await t.admin.get("/ext/svc/banks/remote-dry")).status).toBe(404);
  });

  it("shows a member no Hindsight bank (no owners are recorded) without asking Hindsight", async () => {
    const before = hindsight.requests.length;
    const list = await alice.get("/ext/svc/banks");
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ banks: [] });
    // The bank alice created answers like a missing one (CONTRACT §3).
    const one = await alice.get("/ext/svc/banks/remote-1");
    expect(one.status).toBe(404);
    expect((await alice.get("/ext/svc/banks/nope")).status).toBe(404);
    expect(hindsight.requests.length).toBe(before);
  });

  it("answers the bank reads with 502 when Hindsight fails and 504 when it is slow", async () => {
    try {
      hindsight.setMode("fail");
      for (const path of ["/ext/svc/banks", "/ext/svc/banks/remote-1"]) {
        const res = await t.admin.get(path);
        expect(res.status).toBe(502);
        expect(res.body.detail).toContain(hindsight.url);
        expect(res.text).not.toContain(API_KEY);
      }
      hindsight.setMode("slow", 2000);
      expect((await t.admin.get("/ext/svc/banks")).status).toBe(504);
      expect((await t.admin.get("/ext/svc/banks/remote-1")).status).toBe(504);
    } finally {
      hindsight.setMode("ok");
    }
  });

  it("deletes a Hindsight bank for admins only", async () => {
    await createBank(alice, "remote-delete");
    expect(hindsight.banks.has("remote-delete")).toBe(true);
    expect((await alice.delete("/ext/svc/banks/remote-delete")).status).toBe(404);
    expect((await t.admin.delete("/ext/svc/banks/remote-delete")).status).toBe(204);
    expect(hindsight.banks.has("remote-delete")).toBe(false);
    expect((await t.admin.delete("/ext/svc/banks/remote-delete")).status).toBe(404);
  });

  it("wrote no local bank rows, and every request matched the reference shapes", async () => {
    expect(await localBankRows()).toBe(0);
    expect(hindsight.violations).toEqual([]);
  });
});
