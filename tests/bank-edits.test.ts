import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bankEdits } from "@/db/schema";
import { type Client, useTestApp } from "./support/app";
import { manifest } from "./support/fixtures";
import { useFakeHindsight } from "./support/use-fake-hindsight";

// CONTRACT §21: a bank's mental models, directives, name and config edited in place, in both stores:
// each write answers the bank as GET does (with its ETag), is audited on the bank (before and after as
// GET answers it) and is an `edit` entry of its history; who may apply a template to the bank may edit
// it; bodies are checked against the bank template schema; If-Match holds; and the bank knows its own
// edits (`locally_modified`) until a template is applied again.
const t = useTestApp();
let alice: Client;
let bob: Client;

beforeAll(async () => {
  alice = await t.user("alice");
  bob = await t.user("bob");
  expect((await t.admin.post("/ext/svc/admin/templates", { id: "base", name: "Base", manifest: manifest() })).status).toBe(200);
});

const lastAudit = () => t.lastAudit();

/** The bank as GET answers it, with its ETag. */
async function read(caller: Client, bankId: string) {
  const res = await caller.get(`/ext/svc/banks/${bankId}`);
  expect(res.status, res.text).toBe(200);
  return { bank: res.body, etag: res.headers.get("etag")! };
}

const history = async (caller: Client, bankId: string) => (await caller.get(`/ext/svc/banks/${bankId}/history`)).body.entries;

/** A mental model as Hindsight holds it once put: the defaults it fills in (as for an import). */
const heldByHindsight = (model: Record<string, unknown>) => ({
  tags: [],
  max_tokens: 2048,
  trigger: { mode: "full", refresh_after_consolidation: false, exclude_mental_models: false, keep_trace: false },
  ...model,
});
const directiveHeld = (directive: Record<string, unknown>) => ({ priority: 0, is_active: true, tags: [], ...directive });

interface StoreCase {
  store: "embedded" | "remote";
  bankId: string;
  /** Who edits the bank in this store: its owner (embedded), an admin (remote: no owners). */
  editor: () => Client;
  /** A member who may not edit it, and the status they get. */
  outsider: () => Client;
  /** What a mental model and a directive look like once the store holds them. */
  held: {
    model: (m: Record<string, unknown>) => Record<string, unknown>;
    directive: (d: Record<string, unknown>) => Record<string, unknown>;
  };
}

function editsIn(c: StoreCase) {
  const path = (rest = "") => `/ext/svc/banks/${c.bankId}${rest}`;

  /**
   * One write: 200 with the bank as GET then answers it and its ETag; one audit entry on the bank with
   * GET's before and after; one `edit` history entry, newest, with what it touched.
   */
  async function edits(
    method: "PUT" | "PATCH" | "DELETE",
    rest: string,
    body: unknown,
    expected: { action: string; before: Record<string, unknown>; after: Record<string, unknown> },
  ) {
    const before = await read(c.editor(), c.bankId);
    const res = await c.editor().send(method, path(rest), body);
    expect(res.status, res.text).toBe(200);
    const after = await read(c.editor(), c.bankId);
    expect(res.body).toEqual(after.bank);
    expect(res.headers.get("etag")).toBe(after.etag);
    const audit = await lastAudit();
    expect(audit).toMatchObject({ action: expected.action, target: path(), targetType: "bank", targetId: c.bankId });
    expect(audit.before).toEqual(before.bank);
    expect(audit.after).toEqual(after.bank);
    const [entry] = await history(c.editor(), c.bankId);
    expect(entry).toMatchObject({ kind: "edit", actor: c.store === "embedded" ? "alice" : "admin" });
    expect(entry.before).toEqual(expected.before);
    expect(entry.after).toEqual(expected.after);
    return after.bank;
  }

  it("a bank just applied is not locally modified", async () => {
    const created = await c.editor().post("/ext/svc/banks", { bank_id: c.bankId, template: "server/base" });
    expect(created.status, created.text).toBe(200);
    expect((await read(c.editor(), c.bankId)).bank.locally_modified).toBe(false);
  });

  it("PUT creates a mental model; the bank is then locally modified", async () => {
    const people = { name: "People", source_query: "Who is involved?" };
    const bank = await edits("PUT", "/mental-models/people", people, {
      action: "bank.mental_model.put",
      before: { mental_models: { people: null } },
      after: { mental_models: { people: c.held.model({ id: "people", ...people }) } },
    });
    expect(bank.mental_models.map((m: { id: string }) => m.id)).toEqual(["open-questions", "decisions", "people"]);
    expect(bank.locally_modified).toBe(true);
  });

  it("PUT replaces a mental model whole, in its place: fields the body leaves out are gone", async () => {
    const first = { name: "Decisions", source_query: "What was decided, and why?", max_tokens: 1024, tags: ["team"] };
    await edits("PUT", "/mental-models/decisions", first, {
      action: "bank.mental_model.put",
      before: { mental_models: { decisions: c.held.model(manifest().mental_models[1]!) } },
      after: { mental_models: { decisions: c.held.model({ id: "decisions", ...first }) } },
    });
    const second = { name: "Decisions", source_query: "What was decided?" };
    const bank = await edits("PUT", "/mental-models/decisions", second, {
      action: "bank.mental_model.put",
      before: { mental_models: { decisions: c.held.model({ id: "decisions", ...first }) } },
      after: { mental_models: { decisions: c.held.model({ id: "decisions", ...second }) } },
    });
    expect(bank.mental_models[1]).toEqual(c.held.model({ id: "decisions", ...second }));
  });

  it("DELETE removes a mental model; removing one the bank does not have is 404", async () => {
    const bank = await edits("DELETE", "/mental-models/open-questions", undefined, {
      action: "bank.mental_model.delete",
      before: { mental_models: { "open-questions": c.held.model(manifest().mental_models[0]!) } },
      after: { mental_models: { "open-questions": null } },
    });
    expect(bank.mental_models.map((m: { id: string }) => m.id)).toEqual(["decisions", "people"]);
    const entries = (await history(c.editor(), c.bankId)).length;
    const missing = await c.editor().delete(path("/mental-models/open-questions"));
    expect(missing.status).toBe(404);
    expect(missing.body.type).toBe("urn:bank-templates:problem:not-found");
    expect(await history(c.editor(), c.bankId)).toHaveLength(entries);
  });

  it("directives by name: PUT replaces one and creates another, DELETE removes one, a missing one is 404", async () => {
    const brief = { content: "Two sentences.", priority: 3 };
    await edits("PUT", `/directives/${encodeURIComponent("Be brief")}`, brief, {
      action: "bank.directive.put",
      before: { directives: { "Be brief": c.held.directive(manifest().directives[1]!) } },
      after: { directives: { "Be brief": c.held.directive({ name: "Be brief", ...brief }) } },
    });
    const kind = { content: "Be kind.", tags: ["tone"] };
    await edits("PUT", "/directives/Kindness", kind, {
      action: "bank.directive.put",
      before: { directives: { Kindness: null } },
      after: { directives: { Kindness: c.held.directive({ name: "Kindness", ...kind }) } },
    });
    const bank = await edits("DELETE", `/directives/${encodeURIComponent("Cite sources")}`, undefined, {
      action: "bank.directive.delete",
      before: { directives: { "Cite sources": c.held.directive(manifest().directives[0]!) } },
      after: { directives: { "Cite sources": null } },
    });
    expect(bank.directives).toEqual([c.held.directive({ name: "Be brief", ...brief }), c.held.directive({ name: "Kindness", ...kind })]);
    expect((await c.editor().delete(path(`/directives/${encodeURIComponent("Cite sources")}`))).status).toBe(404);
  });

  it("PATCH renames and merges config: named fields set, a null one back to the server's default, the others kept", async () => {
    const bank = await edits(
      "PATCH",
      "",
      { name: "Renamed", config: { disposition_empathy: 4, retain_mission: null } },
      {
        action: "bank.patch",
        before: { name: c.bankId, config: { disposition_empathy: null, retain_mission: "Keep decisions and their reasons." } },
        after: { name: "Renamed", config: { disposition_empathy: 4, retain_mission: null } },
      },
    );
    expect(bank.name).toBe("Renamed");
    expect(bank.config).toEqual({ disposition_skepticism: 3, disposition_empathy: 4 });
  });

  it("refuses what the bank template schema refuses, at the field (422), and writes nothing", async () => {
    const entries = (await history(c.editor(), c.bankId)).length;
    const cases: Array<[string, string, unknown, string[]]> = [
      ["PUT", "/mental-models/people", { name: " ", source_query: "x", max_tokens: 10 }, ["name", "max_tokens"]],
      ["PUT", "/mental-models/people", { id: "other", name: "People", source_query: "x" }, ["id"]],
      ["PUT", "/mental-models/people", { name: "People", source_query: "x", trigger: { mode: "sometimes" } }, ["trigger.mode"]],
      ["PUT", "/directives/Kindness", { content: 5 }, ["content"]],
      ["PUT", "/directives/Kindness", { name: "Other", content: "x" }, ["name"]],
      ["PATCH", "", { config: { disposition_skepticism: 9 } }, ["config.disposition_skepticism"]],
      ["PATCH", "", { config: { retain_custom_instructions: "x" } }, ["config.retain_custom_instructions"]],
      ["PATCH", "", { name: "", owner: "bob" }, ["name", "owner"]],
    ];
    for (const [method, rest, body, fields] of cases) {
      const res = await c.editor().send(method, path(rest), body);
      expect(res.status, `${method} ${rest} ${JSON.stringify(body)}`).toBe(422);
      expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(fields.sort());
    }
    expect(await history(c.editor(), c.bankId)).toHaveLength(entries);
  });

  it("If-Match: a stale tag is 412 with the current one and writes nothing; the current tag writes", async () => {
    const { etag, bank } = await read(c.editor(), c.bankId);
    const body = { content: "Be very kind." };
    const stale = await c.editor().send("PUT", path("/directives/Kindness"), body, { "if-match": '"not-the-current-tag"' });
    expect(stale.status).toBe(412);
    expect(stale.body.type).toBe("urn:bank-templates:problem:precondition-failed");
    expect(stale.headers.get("etag")).toBe(etag);
    expect((await read(c.editor(), c.bankId)).bank).toEqual(bank);
    for (const [method, rest, sent] of [
      ["PATCH", "", { name: "Other" }],
      ["DELETE", "/mental-models/people", undefined],
    ] as const) {
      expect((await c.editor().send(method, path(rest), sent, { "if-match": '"not-the-current-tag"' })).status).toBe(412);
    }
    const current = await c.editor().send("PUT", path("/directives/Kindness"), body, { "if-match": etag });
    expect(current.status, current.text).toBe(200);
    expect(current.headers.get("etag")).not.toBe(etag);
    expect(current.headers.get("etag")).toBe((await read(c.editor(), c.bankId)).etag);
  });

  it("the history lists the edits among the imports, newest first", async () => {
    const entries = await history(c.editor(), c.bankId);
    expect(entries.map((e: { kind: string }) => e.kind)).toEqual([...Array(entries.length - 1).fill("edit"), "import"]);
    const times = entries.map((e: { at?: string; applied_at?: string }) => e.at ?? e.applied_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("applying the template again leaves the bank as the template wrote it: not locally modified", async () => {
    expect((await read(c.editor(), c.bankId)).bank.locally_modified).toBe(true);
    expect((await c.editor().post("/ext/svc/banks", { bank_id: c.bankId, template: "server/base" })).status).toBe(200);
    expect((await read(c.editor(), c.bankId)).bank.locally_modified).toBe(false);
    // An edit marks it again; one that puts back what the apply left does not.
    const model = manifest().mental_models[0]!;
    const { id: _id, ...rest } = model;
    await c.editor().put(path("/mental-models/open-questions"), { ...rest, name: "Questions" });
    expect((await read(c.editor(), c.bankId)).bank.locally_modified).toBe(true);
    await c.editor().put(path("/mental-models/open-questions"), rest);
    expect((await read(c.editor(), c.bankId)).bank.locally_modified).toBe(false);
  });

  it("who may not apply a template to the bank may not edit it; a missing bank is 404", async () => {
    const before = await read(c.editor(), c.bankId);
    for (const [method, rest, body] of [
      ["PATCH", "", { name: "Mine" }],
      ["PUT", "/mental-models/x", { name: "X", source_query: "x" }],
      ["DELETE", "/directives/Kindness", undefined],
    ] as const) {
      const res = await c.outsider().send(method, path(rest), body);
      expect(res.status, `${method} ${rest}`).toBe(403);
    }
    expect((await read(c.editor(), c.bankId)).bank).toEqual(before.bank);
    expect((await c.editor().patch("/ext/svc/banks/no-such-bank", { name: "x" })).status).toBe(404);
    expect((await c.editor().put("/ext/svc/banks/no-such-bank/directives/x", { content: "x" })).status).toBe(404);
  });
}

describe("the embedded store", () => {
  editsIn({
    store: "embedded",
    bankId: "alices",
    editor: () => alice,
    outsider: () => bob,
    held: { model: (m) => m, directive: (d) => d },
  });

  it("an admin may edit a member's bank", async () => {
    const res = await t.admin.patch("/ext/svc/banks/alices", { config: { disposition_literalism: 2 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ owner: "alice", config: { disposition_literalism: 2 } });
    expect((await history(alice, "alices"))[0]).toMatchObject({ kind: "edit", actor: "admin" });
  });

  it("the bank named rollout is edited as any other", async () => {
    expect((await alice.post("/ext/svc/banks", { bank_id: "rollout", template: "server/base" })).status).toBe(200);
    const res = await alice.patch("/ext/svc/banks/rollout", { name: "Rolled" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ bank_id: "rollout", name: "Rolled" });
    const put = await alice.put("/ext/svc/banks/rollout/directives/Kindness", { content: "x" });
    expect(put.status, put.text).toBe(200);
  });

  it("a deleted bank takes its edits along: one made again under its id starts without them", async () => {
    expect((await alice.delete("/ext/svc/banks/rollout")).status).toBe(204);
    expect(await t.app.db.select().from(bankEdits).where(eq(bankEdits.bankId, "rollout"))).toEqual([]);
    expect((await alice.post("/ext/svc/banks", { bank_id: "rollout", template: "server/base" })).status).toBe(200);
    expect((await history(alice, "rollout")).map((e: { kind: string }) => e.kind)).toEqual(["import"]);
  });
});

describe("the remote store (Hindsight)", () => {
  const hindsight = useFakeHindsight(t);

  editsIn({
    store: "remote",
    bankId: "remote-edited",
    editor: () => t.admin,
    outsider: () => alice,
    held: { model: heldByHindsight, directive: directiveHeld },
  });

  it("went through Hindsight's item endpoints, each call as its documents allow", () => {
    const calls = hindsight.requests.map((r) => `${r.method} ${r.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, "{directive_id}")}`);
    const bank = "/v1/default/banks/remote-edited";
    for (const call of [
      `POST ${bank}/mental-models`,
      `PATCH ${bank}/mental-models/decisions`,
      `DELETE ${bank}/mental-models/open-questions`,
      `PATCH ${bank}/directives/{directive_id}`,
      `POST ${bank}/directives`,
      `DELETE ${bank}/directives/{directive_id}`,
      // The PATCH with a null field: every override reset, then the ones to keep put back.
      `DELETE ${bank}/config`,
      `PATCH ${bank}/config`,
      `PATCH ${bank}`,
    ]) {
      expect(calls).toContain(call);
    }
    expect(hindsight.violations).toEqual([]);
  });

  it("a PATCH that drops no field the bank overrides only merges the fields it sets", async () => {
    const calls = hindsight.requests.length;
    const res = await t.admin.patch("/ext/svc/banks/remote-edited", { config: { disposition_literalism: 2, observations_mission: null } });
    expect(res.status, res.text).toBe(200);
    const sent = hindsight.requests.slice(calls).filter((r) => r.method !== "GET");
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(["PATCH /v1/default/banks/remote-edited/config"]);
    expect(sent[0]!.body).toEqual({ updates: { disposition_literalism: 2 } });
    expect(hindsight.violations).toEqual([]);
  });

  it("a bank whose config Hindsight will not show takes no config field (409), a name still", async () => {
    hindsight.setBankConfigApi(false);
    try {
      const refused = await t.admin.patch("/ext/svc/banks/remote-edited", { config: { disposition_literalism: 3 } });
      expect(refused.status).toBe(409);
      const renamed = await t.admin.patch("/ext/svc/banks/remote-edited", { name: "Named" });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body).toMatchObject({ name: "Named", config_unreadable: true });
    } finally {
      hindsight.setBankConfigApi(true);
    }
  });

  it("an edit Hindsight fails is 502, with nothing recorded", async () => {
    const entries = (await history(t.admin, "remote-edited")).length;
    hindsight.failOperation("update_directive");
    try {
      const res = await t.admin.put("/ext/svc/banks/remote-edited/directives/Kindness", { content: "Changed." });
      expect(res.status).toBe(502);
    } finally {
      hindsight.failOperation(null);
    }
    expect(await history(t.admin, "remote-edited")).toHaveLength(entries);
  });
});
