import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type Client, request, useTestApp } from "./support/app";
import { manifest } from "./support/fixtures";

const t = useTestApp();
let alice: Client;
let bob: Client;

const first = manifest({
  bank: { retain_mission: "Keep decisions.", disposition_skepticism: 4, enable_observations: true },
  mental_models: [
    { id: "decisions", name: "Decisions", source_query: "What was decided?" },
    { id: "risks", name: "Risks", source_query: "What could go wrong?" },
  ],
  directives: [
    { name: "Cite sources", content: "Name the document." },
    { name: "Be brief", content: "Three sentences." },
  ],
});
const second = manifest({
  bank: { disposition_skepticism: 2, reflect_mission: "Help the team." },
  mental_models: [
    { id: "risks", name: "Risks v2", source_query: "What risks remain?" },
    { id: "people", name: "People", source_query: "Who is involved?" },
  ],
  directives: [
    { name: "Be brief", content: "Two sentences." },
    { name: "Be kind", content: "Always." },
  ],
});

beforeAll(async () => {
  alice = await t.user("alice");
  bob = await t.user("bob");
  await alice.post("/ext/svc/me/templates", { id: "first", name: "First", manifest: first });
  await alice.post("/ext/svc/me/templates", { id: "second", name: "Second", manifest: second });
  await alice.post("/ext/svc/me/templates", {
    id: "no-bank",
    name: "No bank",
    manifest: manifest({ bank: undefined, mental_models: undefined, directives: [{ name: "Be kind", content: "Very." }] }),
  });
  await t.admin.post("/ext/svc/admin/templates", {
    id: "first",
    name: "Server first",
    manifest: manifest({ directives: [{ name: "Server", content: "s" }], mental_models: [] }),
  });
  await t.admin.post("/ext/svc/admin/templates", { id: "server-only", name: "Server only", manifest: manifest() });
});

const createBank = (c: Client, body: Record<string, unknown>, dryRun = false) =>
  request("POST", `/ext/svc/banks${dryRun ? "?dry_run=true" : ""}`, { token: c.token, body });

describe("creating a bank from a template", () => {
  it("creates b1: 200 with the full import result", async () => {
    const res = await createBank(alice, { bank_id: "b1", template: "personal/first" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      bank_id: "b1",
      template: "personal/first",
      bank_created: true,
      import_result: {
        bank_id: "b1",
        config_applied: true,
        mental_models_created: ["decisions", "risks"],
        mental_models_updated: [],
        directives_created: ["Cite sources", "Be brief"],
        directives_updated: [],
        operation_ids: [],
        dry_run: false,
      },
      changes: {
        config: [
          { field: "retain_mission", before: null, after: "Keep decisions." },
          { field: "disposition_skepticism", before: null, after: 4 },
          { field: "enable_observations", before: null, after: true },
        ],
        mental_models: first.mental_models.map((entry: { id: string }) => ({ id: entry.id, change: "create", before: null, after: entry })),
        directives: first.directives.map((entry: { name: string }) => ({ name: entry.name, change: "create", before: null, after: entry })),
      },
    });
  });

  it("applies a second template: 200, shared entries updated, new ones created, config merged", async () => {
    const res = await createBank(alice, { bank_id: "b1", template: "second" });
    expect(res.status).toBe(200);
    expect(res.body.bank_created).toBe(false);
    expect(res.body.import_result).toMatchObject({
      config_applied: true,
      mental_models_created: ["people"],
      mental_models_updated: ["risks"],
      directives_created: ["Be kind"],
      directives_updated: ["Be brief"],
      dry_run: false,
    });
    const bank = await alice.get("/ext/svc/banks/b1");
    expect(bank.status).toBe(200);
    expect(bank.body).toMatchObject({
      bank_id: "b1",
      name: "b1",
      owner: "alice",
      config: {
        retain_mission: "Keep decisions.",
        disposition_skepticism: 2,
        enable_observations: true,
        reflect_mission: "Help the team.",
      },
      mental_models: [
        { id: "decisions", name: "Decisions", source_query: "What was decided?" },
        { id: "risks", name: "Risks v2", source_query: "What risks remain?" },
        { id: "people", name: "People", source_query: "Who is involved?" },
      ],
      directives: [
        { name: "Cite sources", content: "Name the document." },
        { name: "Be brief", content: "Two sentences." },
        { name: "Be kind", content: "Always." },
      ],
      last_applied: { template: "personal/second", source_revision: null, applied_at: expect.stringMatching(/Z$/) },
    });
  });

  it("leaves config and omitted sections alone for a manifest without them", async () => {
    const before = (await alice.get("/ext/svc/banks/b1")).body;
    const res = await createBank(alice, { bank_id: "b1", template: "no-bank" });
    expect(res.body.import_result).toMatchObject({
      config_applied: false,
      mental_models_created: [],
      mental_models_updated: [],
      directives_updated: ["Be kind"],
    });
    const after = (await alice.get("/ext/svc/banks/b1")).body;
    expect(after.config).toEqual(before.config);
    expect(after.mental_models).toEqual(before.mental_models);
  });

  it("renames with name and defaults the name to the id", async () => {
    await createBank(alice, { bank_id: "b1", template: "first", name: "Team bank" });
    expect((await alice.get("/ext/svc/banks/b1")).body.name).toBe("Team bank");
  });
});

describe("dry runs", () => {
  it("answers for a new bank and writes nothing", async () => {
    const res = await createBank(alice, { bank_id: "dry-new", template: "first" }, true);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      bank_created: false,
      import_result: {
        dry_run: true,
        config_applied: true,
        mental_models_created: ["decisions", "risks"],
        directives_created: ["Cite sources", "Be brief"],
      },
    });
    expect((await alice.get("/ext/svc/banks/dry-new")).status).toBe(404);
  });

  it("changes nothing on an existing bank", async () => {
    const before = (await alice.get("/ext/svc/banks/b1")).body;
    const res = await createBank(alice, { bank_id: "b1", template: "second", name: "Changed" }, true);
    expect(res.status).toBe(200);
    expect(res.body.import_result).toMatchObject({ dry_run: true, mental_models_updated: ["risks", "people"] });
    expect((await alice.get("/ext/svc/banks/b1")).body).toEqual(before);
  });

  it("follows the same permission rules", async () => {
    expect((await createBank(bob, { bank_id: "b1", template: "server-only" }, true)).status).toBe(403);
  });
});

describe("atomicity", () => {
  it("leaves the bank exactly as before when the import fails half-way", async () => {
    // A trigger makes the database refuse one directive, after config and mental models were written.
    await t.app.db.execute(sql`create function refuse_directive() returns trigger language plpgsql as $$
      begin if new.name = 'Explode' then raise exception 'forced failure'; end if; return new; end $$`);
    await t.app.db.execute(
      sql`create trigger refuse_directive before insert or update on bank_directives for each row execute function refuse_directive()`,
    );
    await alice.post("/ext/svc/me/templates", {
      id: "explosive",
      name: "Explosive",
      manifest: manifest({
        bank: { retain_mission: "Overwritten?" },
        mental_models: [{ id: "new-model", name: "New", source_query: "q" }],
        directives: [
          { name: "Fine", content: "ok" },
          { name: "Explode", content: "boom" },
        ],
      }),
    });
    const before = (await alice.get("/ext/svc/banks/b1")).body;
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const res = await createBank(alice, { bank_id: "b1", template: "explosive" });
    expect(res.status).toBe(500);
    const logged = String(stderr.mock.calls[0]?.[0]);
    expect(logged).toContain("forced failure");
    expect(logged).not.toContain("boom");
    expect((await alice.get("/ext/svc/banks/b1")).body).toEqual(before);
    const fresh = await createBank(alice, { bank_id: "b-explode", template: "explosive" });
    expect(fresh.status).toBe(500);
    stderr.mockRestore();
    expect((await alice.get("/ext/svc/banks/b-explode")).status).toBe(404);
    await t.app.db.execute(sql`drop trigger refuse_directive on bank_directives`);
  });
});

describe("permissions and template refs", () => {
  it("forbids bob to apply a template to alice's bank (403) and hides it from him", async () => {
    await bob.post("/ext/svc/me/templates", { id: "bobs", name: "Bob's", manifest: manifest() });
    expect((await createBank(bob, { bank_id: "b1", template: "bobs" })).status).toBe(403);
    expect((await bob.get("/ext/svc/banks/b1")).status).toBe(404);
    expect((await bob.get("/ext/svc/banks")).body.banks).toEqual([]);
    expect((await t.admin.get("/ext/svc/banks/b1")).status).toBe(200);
  });

  it("forbids bob to read or change the policy of alice's bank (403), which alice may", async () => {
    const document = { version: "2026-03-24", default_strategy: "balanced" };
    expect((await alice.get("/ext/svc/banks/b1")).body.has_policy).toBe(false);
    expect((await alice.put("/ext/svc/banks/b1/policy", { document })).status).toBe(200);
    expect((await bob.get("/ext/svc/banks/b1/policy")).status).toBe(403);
    expect((await bob.put("/ext/svc/banks/b1/policy", { document })).status).toBe(403);
    expect((await bob.delete("/ext/svc/banks/b1/policy")).status).toBe(403);
    expect((await bob.get("/ext/svc/banks/b1/policy/resolve")).status).toBe(403);
    expect((await alice.get("/ext/svc/banks/b1/policy")).body.document).toEqual(document);
    expect((await alice.get("/ext/svc/banks/b1")).body.has_policy).toBe(true);
  });

  it("does not let bob use alice's personal template (404)", async () => {
    expect((await createBank(bob, { bank_id: "bob-1", template: "personal/second" })).status).toBe(404);
    expect((await createBank(bob, { bank_id: "bob-1", template: "second" })).status).toBe(404);
  });

  it("resolves a bare ref to the caller's personal template before the server one", async () => {
    const mine = await createBank(alice, { bank_id: "bare-1", template: "first" });
    expect(mine.status).toBe(200);
    expect((await alice.get("/ext/svc/banks/bare-1")).body.last_applied.template).toBe("personal/first");
    const server = await createBank(bob, { bank_id: "bare-2", template: "first" });
    expect(server.status).toBe(200);
    expect(server.body.import_result.directives_created).toEqual(["Server"]);
    expect((await bob.get("/ext/svc/banks/bare-2")).body.last_applied.template).toBe("server/first");
    expect((await createBank(alice, { bank_id: "bare-3", template: "server/first" })).body.import_result.directives_created).toEqual([
      "Server",
    ]);
  });

  it("lets admins apply to anyone's bank, keeping the owner", async () => {
    const res = await createBank(t.admin, { bank_id: "b1", template: "server/server-only" });
    expect(res.status).toBe(200);
    expect((await alice.get("/ext/svc/banks/b1")).body.owner).toBe("alice");
  });

  it("lists banks: admins all, others their own, by id", async () => {
    expect((await alice.get("/ext/svc/banks")).body.banks.map((b: { bank_id: string }) => b.bank_id)).toEqual(["b1", "bare-1", "bare-3"]);
    expect((await t.admin.get("/ext/svc/banks")).body.banks.map((b: { bank_id: string }) => b.bank_id)).toEqual([
      "b1",
      "bare-1",
      "bare-2",
      "bare-3",
    ]);
  });

  it.each([
    [{ bank_id: "has space", template: "first" }, "bank_id"],
    [{ bank_id: "x".repeat(129), template: "first" }, "bank_id"],
    [{ bank_id: "ok", template: "team/first" }, "template"],
    [{ bank_id: "ok", template: "personal/" }, "template"],
    [{ bank_id: "ok", template: "personal/a b" }, "template"],
    [{ bank_id: "ok", template: "first", colour: 1 }, "colour"],
    [{ template: "first" }, "bank_id"],
  ])("answers 422 for %j at %s", async (body, path) => {
    const res = await createBank(alice, body);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("answers 404 for an unknown template", async () => {
    expect((await createBank(alice, { bank_id: "ok", template: "server/nope" })).status).toBe(404);
  });

  it("accepts bank ids with colons and dots", async () => {
    expect((await createBank(alice, { bank_id: "team:eng.v2", template: "first" })).status).toBe(200);
    expect((await alice.get("/ext/svc/banks/team:eng.v2")).status).toBe(200);
  });
});

describe("deleting a bank", () => {
  it("hides other users' banks (404), deletes the owner's with its entries and its policy", async () => {
    await createBank(alice, { bank_id: "to-delete", template: "first" });
    await alice.put("/ext/svc/banks/to-delete/policy", { document: { version: "2026-03-24" } });
    expect((await bob.delete("/ext/svc/banks/to-delete")).status).toBe(404);
    const res = await alice.delete("/ext/svc/banks/to-delete");
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await alice.get("/ext/svc/banks/to-delete")).status).toBe(404);
    expect((await alice.delete("/ext/svc/banks/to-delete")).status).toBe(404);
    const leftovers = await t.app.db.execute(
      sql`select (select count(*) from bank_mental_models where bank_id = 'to-delete') + (select count(*) from bank_directives where bank_id = 'to-delete') as n`,
    );
    const rows = (leftovers as unknown as { rows?: { n: number }[] }).rows ?? (leftovers as unknown as { n: number }[]);
    expect(Number(rows[0]!.n)).toBe(0);
    // The policy went with the bank (CONTRACT §19): nobody is left with it (tests/bank-deletion.test.ts).
    expect((await t.admin.get("/ext/svc/banks/to-delete/policy")).status).toBe(404);
  });

  it("lets an admin delete anyone's bank", async () => {
    await createBank(alice, { bank_id: "admin-deletes", template: "first" });
    expect((await t.admin.delete("/ext/svc/banks/admin-deletes")).status).toBe(204);
  });
});
