import { beforeAll, describe, expect, it } from "vitest";
import { type Client, useTestApp } from "./support/app";
import { manifest } from "./support/fixtures";
import { useFakeHindsight } from "./support/use-fake-hindsight";

// CONTRACT §14, §17: the audit entries of bank and policy writes name their target and hold the
// resource as the API answers it before and after the write (null for a creation or deletion),
// in both stores.
const t = useTestApp();
let alice: Client;

const second = manifest({
  bank: { disposition_skepticism: 2 },
  mental_models: [{ id: "people", name: "People", source_query: "Who is involved?" }],
});

beforeAll(async () => {
  alice = await t.user("alice");
  expect((await alice.post("/ext/svc/me/templates", { id: "first", name: "First", manifest: manifest() })).status).toBe(200);
  expect((await alice.post("/ext/svc/me/templates", { id: "second", name: "Second", manifest: second })).status).toBe(200);
});

const lastEntry = () => t.lastAudit();

/** The bank as GET answers it, for `caller`. */
async function bankOf(caller: Client, bankId: string) {
  const res = await caller.get(`/ext/svc/banks/${bankId}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const POLICY = { version: "2026-03-24", default_strategy: "balanced" };
const OTHER_POLICY = { version: "2026-03-24", default_strategy: "thorough" };

/** The policy writes on `bankId` by `caller`, each with its entry. */
async function checkPolicyWrites(caller: Client, bankId: string) {
  const path = `/ext/svc/banks/${bankId}/policy`;
  expect((await caller.put(path, { document: POLICY })).status).toBe(200);
  const created = await lastEntry();
  expect(created).toMatchObject({ action: "bank.policy.put", targetType: "policy", targetId: bankId, before: null });
  expect(created.after).toEqual((await caller.get(path)).body);

  expect((await caller.put(path, { document: OTHER_POLICY })).status).toBe(200);
  const replaced = await lastEntry();
  expect(replaced).toMatchObject({ action: "bank.policy.put", targetType: "policy", targetId: bankId });
  expect(replaced.before).toEqual(created.after);
  expect(replaced.after).toEqual({ bank_id: bankId, document: OTHER_POLICY });

  expect((await caller.delete(path)).status).toBe(204);
  const deleted = await lastEntry();
  expect(deleted).toMatchObject({ action: "bank.policy.delete", targetType: "policy", targetId: bankId, after: null });
  expect(deleted.before).toEqual(replaced.after);
}

describe("audit entries of the embedded store's bank writes", () => {
  it("an import that creates the bank: before null, after the bank as GET answers it", async () => {
    expect((await alice.post("/ext/svc/banks", { bank_id: "audited", template: "first" })).status).toBe(200);
    const entry = await lastEntry();
    expect(entry).toMatchObject({ action: "bank.import", target: "/ext/svc/banks/audited", targetType: "bank", targetId: "audited" });
    expect(entry.before).toBeNull();
    expect(entry.after).toEqual(await bankOf(alice, "audited"));
  });

  it("an import into an existing bank: before and after as GET answers them; a dry run records nothing", async () => {
    const before = await bankOf(alice, "audited");
    const previous = await lastEntry();
    expect((await alice.post("/ext/svc/banks?dry_run=true", { bank_id: "audited", template: "second" })).status).toBe(200);
    expect((await lastEntry()).seq).toBe(previous.seq);
    expect((await alice.post("/ext/svc/banks", { bank_id: "audited", template: "second", name: "Renamed" })).status).toBe(200);
    const entry = await lastEntry();
    expect(entry).toMatchObject({ action: "bank.import", targetType: "bank", targetId: "audited" });
    expect(entry.before).toEqual(before);
    expect(entry.after).toEqual(await bankOf(alice, "audited"));
    expect(entry.after).toMatchObject({ name: "Renamed", last_applied: { template: "personal/second" } });
  });

  it("policy writes: before null on creation, the stored policy after; a deletion's after is null", async () => {
    await checkPolicyWrites(alice, "audited");
  });

  it("a bank deletion: before the bank as GET answered it, after null", async () => {
    expect((await alice.put("/ext/svc/banks/audited/policy", { document: POLICY })).status).toBe(200);
    const before = await bankOf(alice, "audited");
    expect(before.has_policy).toBe(true);
    expect((await alice.delete("/ext/svc/banks/audited")).status).toBe(204);
    const entry = await lastEntry();
    expect(entry).toMatchObject({ action: "bank.delete", targetType: "bank", targetId: "audited", after: null });
    expect(entry.before).toEqual(before);
  });
});

describe("audit entries of the remote store's bank writes", () => {
  const hindsight = useFakeHindsight(t);

  it("an import by a member that creates the bank: before null, after the bank as an admin reads it", async () => {
    expect((await alice.post("/ext/svc/banks", { bank_id: "remote-audited", template: "first" })).status).toBe(200);
    const entry = await lastEntry();
    expect(entry).toMatchObject({ action: "bank.import", targetType: "bank", targetId: "remote-audited", before: null });
    expect(entry.after).toEqual(await bankOf(t.admin, "remote-audited"));
  });

  it("an import into an existing bank: before and after as GET answers them", async () => {
    await t.admin.post("/ext/svc/admin/templates", { id: "second", name: "Second", manifest: second });
    const before = await bankOf(t.admin, "remote-audited");
    expect((await t.admin.post("/ext/svc/banks", { bank_id: "remote-audited", template: "server/second", name: "Renamed" })).status).toBe(
      200,
    );
    const entry = await lastEntry();
    expect(entry).toMatchObject({ action: "bank.import", targetType: "bank", targetId: "remote-audited" });
    expect(entry.before).toEqual(before);
    expect(entry.after).toEqual(await bankOf(t.admin, "remote-audited"));
    expect(entry.after).toMatchObject({ name: "Renamed" });
  });

  it("policy writes, as in the embedded store", async () => {
    await checkPolicyWrites(t.admin, "remote-audited");
  });

  it("a bank deletion: before the bank as GET answered it, after null", async () => {
    const before = await bankOf(t.admin, "remote-audited");
    expect((await t.admin.delete("/ext/svc/banks/remote-audited")).status).toBe(204);
    const entry = await lastEntry();
    expect(entry).toMatchObject({ action: "bank.delete", targetType: "bank", targetId: "remote-audited", after: null });
    expect(entry.before).toEqual(before);
    expect(hindsight.violations).toEqual([]);
  });
});
