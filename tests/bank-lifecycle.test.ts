import { asc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditEntries } from "@/db/schema";
import { problemTypeUri } from "@/lib/contracts/problem-types";
import { rolloutTemplate } from "@/lib/services/banks/rollout";
import { type Client, request, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { serviceContext } from "./support/service-context";
import { useFakeHindsight } from "./support/use-fake-hindsight";
import { useMarketplace } from "./support/use-marketplace";

// CONTRACT §16: a bank's provenance (the template version applied, whether it held local edits),
// `behind`, GET /banks?template= and POST /banks/rollout, on the embedded store and on Hindsight.
const t = useTestApp();
const market = useMarketplace(t);
let carl: Client;
let dora: Client;

const T = "/ext/svc/me/templates";
const REF = "personal/notes-bot";
const CARL = { type: "user" as const, id: "carl", userId: "carl", role: "member" as const, displayName: "carl" };
/** Upstream's second content: one directive more, so a rollout has something to change. */
const upstreamV2 = manifest({
  directives: [...manifest().directives, { name: "Say when unsure", content: "Say so when a fact may be out of date." }],
});

const apply = (c: Client, bankId: string, template: string) => c.post("/ext/svc/banks", { bank_id: bankId, template });

function rollout(c: Client, body: Record<string, unknown>, { dryRun = false, requestId }: { dryRun?: boolean; requestId?: string } = {}) {
  return request("POST", `/ext/svc/banks/rollout${dryRun ? "?dry_run=true" : ""}`, {
    token: c.token,
    body,
    headers: requestId ? { "x-request-id": requestId } : undefined,
  });
}

const bankIds = (res: { body: { banks: Array<{ bank_id: string }> } }) => res.body.banks.map((bank) => bank.bank_id);

async function auditCount() {
  const [row] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(auditEntries);
  return Number(row!.n);
}

beforeAll(async () => {
  carl = await t.user("carl");
  dora = await t.user("dora");
  market.setFile("/life/templates.json", catalog(catalogEntry("notes-bot")));
  expect((await carl.post("/ext/svc/me/template-sources", { url: `${market.url}/life`, alias: "life" })).status).toBe(201);
  expect((await dora.post(T, { id: "own", name: "Dora's", manifest: manifest() })).status).toBe(200);
  expect((await apply(dora, "dora-bank", "own")).status).toBe(200);
});

describe("provenance on the embedded store: install, patch, create banks, update, behind, rollout", () => {
  let revision: string;

  it("records the version and the local edits a bank was made from, in the bank and its history", async () => {
    expect((await carl.post(`${T}/notes-bot/install`, { source_name: "life" })).status).toBe(200);
    // Version 2: edited here, so locally modified.
    const patched = await carl.patch(`${T}/notes-bot`, { description: "Edited here" });
    expect(patched.body.locally_modified).toBe(true);
    revision = patched.body.source_revision;
    for (const id of ["carl-1", "carl-2", "carl-3"]) expect((await apply(carl, id, REF)).status).toBe(200);
    expect((await carl.post(T, { id: "other", name: "Other", manifest: manifest() })).status).toBe(200);
    expect((await apply(carl, "carl-other", "other")).status).toBe(200);

    const bank = (await carl.get("/ext/svc/banks/carl-1")).body;
    const [entry] = (await carl.get("/ext/svc/banks/carl-1/history")).body.entries;
    expect(bank.last_applied).toEqual({
      template: REF,
      source_revision: revision,
      template_version: 2,
      locally_modified: true,
      applied_at: entry.applied_at,
    });
    expect(bank.behind).toBe(false);
    expect(entry).toMatchObject({ kind: "import", template: REF, source_revision: revision, template_version: 2, locally_modified: true });
  });

  it("marks the banks behind once the template has a newer version, in the list and each bank", async () => {
    market.setFile("/life/templates.json", catalog(catalogEntry("notes-bot", { manifest: upstreamV2 })));
    const updated = await request("POST", `${T}/notes-bot/update?force=true`, { token: carl.token });
    expect(updated.body.updated, updated.text).toBe(true);

    const list = (await carl.get("/ext/svc/banks")).body.banks as Array<{ bank_id: string; behind: boolean; newest_version: unknown }>;
    expect(list.map((bank) => [bank.bank_id, bank.behind])).toEqual([
      ["carl-1", true],
      ["carl-2", true],
      ["carl-3", true],
      ["carl-other", false],
    ]);
    expect((await carl.get("/ext/svc/banks/carl-2")).body.behind).toBe(true);
    // An admin sees the same answer for carl's banks.
    expect((await t.admin.get("/ext/svc/banks/carl-2")).body.behind).toBe(true);
    // What a rollout would apply now: the update, version 3; the other template's bank holds its newest.
    const newest = (id: string) => list.find((bank) => bank.bank_id === id)!.newest_version;
    expect(newest("carl-1")).toEqual({ version: 3, action: "update", restored_version: null });
    expect(newest("carl-other")).toEqual({ version: 1, action: "create", restored_version: null });
  });

  it("lists the banks last applied from a template with ?template=, its ref resolved as POST /banks resolves it", async () => {
    expect(bankIds(await carl.get(`/ext/svc/banks?template=${REF}`))).toEqual(["carl-1", "carl-2", "carl-3"]);
    expect(bankIds(await carl.get("/ext/svc/banks?template=notes-bot"))).toEqual(["carl-1", "carl-2", "carl-3"]);
    expect(bankIds(await carl.get("/ext/svc/banks?template=personal/other"))).toEqual(["carl-other"]);
    // Visibility as without the filter: dora's ref names her own template, and she sees only her banks.
    expect(bankIds(await dora.get("/ext/svc/banks?template=own"))).toEqual(["dora-bank"]);
    const malformed = await carl.get("/ext/svc/banks?template=personal/Not%20an%20id");
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors[0].path).toBe("template");
    // A template nobody has (dora cannot name carl's personal one either): 404, as POST /banks answers.
    expect((await carl.get("/ext/svc/banks?template=personal/nothing")).status).toBe(404);
    expect((await dora.get(`/ext/svc/banks?template=${REF}`)).status).toBe(404);
  });

  it("previews a rollout with a dry run that writes nothing: history, banks and audit unchanged", async () => {
    const banksBefore = await Promise.all(["carl-1", "carl-2"].map(async (id) => (await carl.get(`/ext/svc/banks/${id}`)).body));
    const historyBefore = (await carl.get("/ext/svc/banks/carl-1/history")).body;
    const entries = await auditCount();

    const preview = await rollout(carl, { template: REF, bank_ids: ["carl-2", "carl-1"] }, { dryRun: true });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.results.map((r: { bank_id: string }) => r.bank_id)).toEqual(["carl-2", "carl-1"]);
    for (const result of preview.body.results) {
      expect(result).toMatchObject({ applied: true, problem: null, import_result: { dry_run: true } });
      expect(result.changes.directives).toEqual([
        { name: "Say when unsure", change: "create", before: null, after: upstreamV2.directives[2] },
      ]);
    }

    expect(await Promise.all(["carl-1", "carl-2"].map(async (id) => (await carl.get(`/ext/svc/banks/${id}`)).body))).toEqual(banksBefore);
    expect((await carl.get("/ext/svc/banks/carl-1/history")).body).toEqual(historyBefore);
    expect(await auditCount()).toBe(entries);
  });

  it("without bank_ids rolls out to the caller's banks from that template that are behind, by id, each with its own audit entry", async () => {
    // carl-1 catches up on its own first: no longer behind, so not picked.
    expect((await apply(carl, "carl-1", REF)).status).toBe(200);
    const done = await rollout(carl, { template: REF }, { requestId: "rollout-behind" });
    expect(done.status, done.text).toBe(200);
    expect(done.body.results.map((r: { bank_id: string; applied: boolean }) => [r.bank_id, r.applied])).toEqual([
      ["carl-2", true],
      ["carl-3", true],
    ]);
    expect(done.body.results[0].import_result).toMatchObject({
      bank_id: "carl-2",
      directives_created: ["Say when unsure"],
      dry_run: false,
    });

    const list = (await carl.get(`/ext/svc/banks?template=${REF}`)).body.banks;
    expect(list.map((bank: { behind: boolean }) => bank.behind)).toEqual([false, false, false]);
    const [entry] = (await carl.get("/ext/svc/banks/carl-3/history")).body.entries;
    expect(entry).toMatchObject({ template: REF, template_version: 3, locally_modified: false, actor: "carl" });

    const audited = await t.app.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.requestId, "rollout-behind"))
      .orderBy(asc(auditEntries.target));
    expect(audited.map((e) => [e.action, e.target, e.targetId])).toEqual([
      ["bank.import", "/ext/svc/banks/carl-2", "carl-2"],
      ["bank.import", "/ext/svc/banks/carl-3", "carl-3"],
    ]);
    expect(audited[0]!.before).toMatchObject({ bank_id: "carl-2", behind: true, last_applied: { template_version: 2 } });
    expect(audited[0]!.after).toMatchObject({ bank_id: "carl-2", behind: false, last_applied: { template_version: 3 } });

    // Nothing behind any more: nothing to do, nothing recorded.
    const entries = await auditCount();
    expect((await rollout(carl, { template: REF })).body).toEqual({ results: [] });
    expect(await auditCount()).toBe(entries);
  });

  it("goes on past a bank the caller may not write: its 403 is its problem, the others are applied, in bank_ids order", async () => {
    const doraBefore = (await dora.get("/ext/svc/banks/dora-bank")).body;
    const res = await rollout(carl, { template: REF, bank_ids: ["carl-3", "dora-bank", "carl-1"] });
    expect(res.status, res.text).toBe(200);
    const [first, refused, last] = res.body.results;
    expect(first).toMatchObject({ bank_id: "carl-3", applied: true, problem: null });
    expect(last).toMatchObject({ bank_id: "carl-1", applied: true, problem: null });
    expect(refused).toEqual({
      bank_id: "dora-bank",
      applied: false,
      import_result: null,
      changes: null,
      problem: expect.objectContaining({ type: problemTypeUri("forbidden"), status: 403, detail: expect.stringContaining("dora-bank") }),
    });
    expect((await dora.get("/ext/svc/banks/dora-bank")).body).toEqual(doraBefore);
  });

  it("answers an unexpected failure of one bank as a bare 500 problem, without its message, and goes on", async () => {
    await t.app.db.execute(
      sql.raw(
        `create function refuse_import() returns trigger language plpgsql as $$ begin if new.bank_id = 'carl-2' then raise exception 'internal detail 7f3a'; end if; return new; end $$`,
      ),
    );
    await t.app.db.execute(
      sql.raw("create trigger refuse_import before insert on bank_imports for each row execute function refuse_import()"),
    );
    try {
      const res = await rollout(carl, { template: REF, bank_ids: ["carl-1", "carl-2", "carl-3"] });
      expect(res.status, res.text).toBe(200);
      expect(res.body.results.map((r: { applied: boolean }) => r.applied)).toEqual([true, false, true]);
      expect(res.body.results[1].problem).toMatchObject({ type: problemTypeUri("internal-error"), status: 500 });
      expect(res.text).not.toContain("7f3a");
    } finally {
      await t.app.db.execute(sql.raw("drop trigger refuse_import on bank_imports"));
      await t.app.db.execute(sql.raw("drop function refuse_import()"));
    }
  });

  it("starts no further bank once the caller went away", async () => {
    const gone = new AbortController();
    gone.abort(new Error("client went away"));
    const before = (await carl.get("/ext/svc/banks/carl-1/history")).body.entries.length;
    const ctx = { ...serviceContext(t.app, CARL), signal: gone.signal };
    await expect(rolloutTemplate(ctx, { body: { template: REF, bank_ids: ["carl-1"] }, dryRun: false })).rejects.toThrow(
      "client went away",
    );
    expect((await carl.get("/ext/svc/banks/carl-1/history")).body.entries).toHaveLength(before);
  });

  it("refuses malformed bank lists and unknown templates as a whole", async () => {
    const refused: Array<[Record<string, unknown>, number]> = [
      [{ template: REF, bank_ids: ["carl-1", "carl-1"] }, 422],
      [{ template: REF, bank_ids: [] }, 422],
      [{ template: REF, bank_ids: ["not a bank id"] }, 422],
      [{ template: REF, bank_ids: Array.from({ length: 1001 }, (_, i) => `bank-${i}`) }, 422],
      [{ template: "personal/Not An Id" }, 422],
      [{ template: REF, extra: true }, 422],
      [{ template: "personal/nothing" }, 404],
    ];
    const entries = await auditCount();
    for (const [body, status] of refused) expect((await rollout(carl, body)).status, JSON.stringify(body).slice(0, 80)).toBe(status);
    expect(await auditCount()).toBe(entries);
  });

  it("a rollback is a newer version that says which version it restores, so the console can tell a rollout takes banks back", async () => {
    expect((await carl.patch(`${T}/other`, { description: "v2" })).status).toBe(200);
    expect((await carl.post(`${T}/other/rollback`, { version: 1 })).status).toBe(200);
    const bank = (await carl.get("/ext/svc/banks/carl-other")).body;
    expect(bank.behind).toBe(true);
    expect(bank.last_applied).toMatchObject({ template_version: 1 });
    expect(bank.newest_version).toEqual({ version: 3, action: "rollback", restored_version: 1 });
    const [listed] = (await carl.get("/ext/svc/banks?template=personal/other")).body.banks;
    expect(listed.newest_version).toEqual(bank.newest_version);
  });

  it("a template that is gone: its banks are no longer behind, and ?template= answers 404", async () => {
    expect((await carl.patch(`${T}/other`, { description: "v4" })).status).toBe(200);
    expect((await carl.get("/ext/svc/banks/carl-other")).body.behind).toBe(true);
    expect((await carl.delete(`${T}/other`)).status).toBe(204);
    const bank = (await carl.get("/ext/svc/banks/carl-other")).body;
    expect(bank.behind).toBe(false);
    expect(bank.newest_version).toBeNull();
    expect(bank.last_applied).toMatchObject({ template: "personal/other", template_version: 1 });
    expect((await carl.get("/ext/svc/banks?template=personal/other")).status).toBe(404);
    // A new template of that id is another row: the old banks are not its banks.
    expect((await carl.post(T, { id: "other", name: "Other again", manifest: manifest() })).status).toBe(200);
    expect((await carl.get("/ext/svc/banks?template=personal/other")).body.banks).toEqual([]);
  });
});

describe("provenance on the remote store (Hindsight), from the history of imports", () => {
  const hindsight = useFakeHindsight(t, { timeoutMs: 2000 });
  const REMOTE_REF = "server/remote-tpl";

  beforeAll(async () => {
    expect((await t.admin.post("/ext/svc/admin/templates", { id: "remote-tpl", name: "Remote", manifest: manifest() })).status).toBe(200);
  });

  it("answers last_applied and behind from the newest import, and rolls out to the banks behind", async () => {
    for (const id of ["r-1", "r-2"]) expect((await apply(t.admin, id, REMOTE_REF)).status).toBe(200);
    hindsight.addBank("r-elsewhere", "Made elsewhere");

    const listed = (await t.admin.get("/ext/svc/banks")).body.banks;
    expect(listed.map((bank: { bank_id: string; behind: boolean }) => [bank.bank_id, bank.behind])).toEqual([
      ["r-1", false],
      ["r-2", false],
      ["r-elsewhere", false],
    ]);
    expect(listed[0].last_applied).toMatchObject({ template: REMOTE_REF, template_version: 1, locally_modified: false });
    expect(listed[2].last_applied).toBeNull();

    expect((await t.admin.patch(`/ext/svc/admin/templates/remote-tpl`, { manifest: upstreamV2 })).status).toBe(200);
    expect((await t.admin.get("/ext/svc/banks/r-1")).body).toMatchObject({
      behind: true,
      newest_version: { version: 2, action: "patch", restored_version: null },
    });
    expect(listed[2].newest_version).toBeNull();
    expect(bankIds(await t.admin.get(`/ext/svc/banks?template=${REMOTE_REF}`))).toEqual(["r-1", "r-2"]);

    const preview = await rollout(t.admin, { template: REMOTE_REF }, { dryRun: true });
    expect(preview.body.results.map((r: { bank_id: string }) => r.bank_id)).toEqual(["r-1", "r-2"]);
    expect((await t.admin.get("/ext/svc/banks/r-1")).body.behind).toBe(true);

    const done = await rollout(t.admin, { template: REMOTE_REF });
    expect(done.status, done.text).toBe(200);
    expect(done.body.results.map((r: { applied: boolean }) => r.applied)).toEqual([true, true]);
    expect(done.body.results[0].changes.directives.map((d: { name: string }) => d.name)).toEqual(["Say when unsure"]);
    const after = (await t.admin.get(`/ext/svc/banks?template=${REMOTE_REF}`)).body.banks;
    expect(
      after.map((bank: { behind: boolean; last_applied: { template_version: number } }) => [
        bank.behind,
        bank.last_applied.template_version,
      ]),
    ).toEqual([
      [false, 2],
      [false, 2],
    ]);
  });

  it("gives a member's refused Hindsight bank its 403 and goes on", async () => {
    const member = await t.user("remo");
    const res = await rollout(member, { template: REMOTE_REF, bank_ids: ["r-1", "r-new"] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results[0]).toMatchObject({ bank_id: "r-1", applied: false, problem: { status: 403 } });
    // As POST /banks would: a member may create a Hindsight bank.
    expect(res.body.results[1]).toMatchObject({ bank_id: "r-new", applied: true, problem: null });
  });
});

describe("a bank whose id is rollout", () => {
  it("is read and deleted at /banks/rollout, which POST keeps for rollouts", async () => {
    expect((await apply(dora, "rollout", "own")).status).toBe(200);
    const read = await dora.get("/ext/svc/banks/rollout");
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ bank_id: "rollout", last_applied: { template: "personal/own" } });
    expect((await dora.get("/ext/svc/banks/rollout/history")).body.entries).toHaveLength(1);
    expect((await carl.get("/ext/svc/banks/rollout")).status).toBe(404);
    expect((await dora.delete("/ext/svc/banks/rollout")).status).toBe(204);
    expect((await dora.get("/ext/svc/banks/rollout")).status).toBe(404);
    expect((await request("PUT", "/ext/svc/banks/rollout", { token: dora.token, body: {} })).headers.get("allow")).toBe(
      "GET, POST, PATCH, DELETE",
    );
  });
});
