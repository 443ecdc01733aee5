import { and, asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditEntries } from "@/db/schema";
import { type Client, useTestApp } from "./support/app";
import { manifest } from "./support/fixtures";
import { useFakeHindsight } from "./support/use-fake-hindsight";

// CONTRACT §19: deleting a bank deletes its policy and the policy's history with it, in both
// stores, so a bank created later under the same id starts without a policy or history; the
// policy's documents stay in the audit log.
const t = useTestApp();
let alice: Client;
let bob: Client;

const FIRST = { version: "2026-03-24", default_strategy: "balanced" };
const LAST = { version: "2026-03-24", default_strategy: "thorough", public_access: { default: { actions: ["bank:recall"] } } };

beforeAll(async () => {
  alice = await t.user("alice");
  bob = await t.user("bob");
  expect((await t.admin.post("/ext/svc/admin/templates", { id: "tpl", name: "Template", manifest: manifest() })).status).toBe(200);
});

const paths = (bankId: string) => {
  const bank = `/ext/svc/banks/${bankId}`;
  return { bank, policy: `${bank}/policy`, history: `${bank}/history` };
};

const create = async (caller: Client, bankId: string) => {
  const res = await caller.post("/ext/svc/banks", { bank_id: bankId, template: "server/tpl" });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** The bank's policy written twice by `caller`, then the bank deleted by `caller`. */
async function writePolicyAndDelete(caller: Client, bankId: string) {
  const { bank, policy } = paths(bankId);
  expect((await caller.put(policy, { document: FIRST })).status).toBe(200);
  expect((await caller.put(policy, { document: LAST })).status).toBe(200);
  expect((await caller.get(bank)).body.has_policy).toBe(true);
  const deleted = await caller.delete(bank);
  expect(deleted.status, deleted.text).toBe(204);
}

/** The audit entries about the bank id's policy and the bank, oldest first. */
const entriesOf = (bankId: string, targetType: "policy" | "bank") =>
  t.app.db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.targetType, targetType), eq(auditEntries.targetId, bankId)))
    .orderBy(asc(auditEntries.seq));

/** The deletion took the policy along, and the audit log still holds each of its documents. */
async function expectPolicyGoneButAudited(bankId: string) {
  expect((await t.admin.get(paths(bankId).policy)).status).toBe(404);
  const policyEntries = await entriesOf(bankId, "policy");
  expect(policyEntries.map((e) => [e.action, e.after])).toEqual([
    ["bank.policy.put", { bank_id: bankId, document: FIRST }],
    ["bank.policy.put", { bank_id: bankId, document: LAST }],
  ]);
  // The deletion's entry holds the bank as it was: with a policy, which went with it.
  const deletion = (await entriesOf(bankId, "bank")).at(-1)!;
  expect(deletion).toMatchObject({ action: "bank.delete", after: null, before: { bank_id: bankId, has_policy: true } });
}

/** A bank just created again: no policy, and a history of that one import only. */
async function expectFreshStart(caller: Client, bankId: string) {
  const { bank, policy, history } = paths(bankId);
  expect((await caller.get(bank)).body.has_policy).toBe(false);
  expect((await caller.get(policy)).status).toBe(404);
  const entries = (await caller.get(history)).body.entries;
  expect(entries.map((e: { kind: string; template: string }) => [e.kind, e.template])).toEqual([["import", "server/tpl"]]);
}

describe("embedded store: a deleted bank takes its policy and history along", () => {
  it("a bank deleted and created again under its id has no policy and no history; the documents stay in the audit", async () => {
    await create(alice, "reborn");
    await writePolicyAndDelete(alice, "reborn");
    await expectPolicyGoneButAudited("reborn");
    expect((await t.admin.get(paths("reborn").history)).status).toBe(404);

    const again = await create(alice, "reborn");
    expect(again.bank_created).toBe(true);
    await expectFreshStart(alice, "reborn");
  });

  it("a member who deletes their bank is left with no policy, and the next member to create that id inherits none", async () => {
    await create(alice, "handed-on");
    await writePolicyAndDelete(alice, "handed-on");
    // Nothing is left that alice could neither read nor delete: the policy is gone, not hidden.
    await expectPolicyGoneButAudited("handed-on");

    expect((await create(bob, "handed-on")).bank_created).toBe(true);
    await expectFreshStart(bob, "handed-on");
    // bob's first policy replaces nothing.
    expect((await bob.put(paths("handed-on").policy, { document: FIRST })).status).toBe(200);
    expect((await entriesOf("handed-on", "policy")).at(-1)).toMatchObject({ action: "bank.policy.put", before: null });
  });

  it("an admin's policy put ahead of a bank to come stays until that bank is deleted", async () => {
    const { policy } = paths("ahead");
    expect((await t.admin.put(policy, { document: FIRST })).status).toBe(200);
    expect((await create(alice, "ahead")).bank_created).toBe(true);
    expect((await alice.get(policy)).body.document).toEqual(FIRST);
    expect((await alice.delete(paths("ahead").bank)).status).toBe(204);
    expect((await t.admin.get(policy)).status).toBe(404);
  });
});

describe("remote store: a deleted Hindsight bank takes its policy and history along", () => {
  const hindsight = useFakeHindsight(t, { timeoutMs: 2000 });

  it("a bank deleted and created again under its id has no policy and no history; the documents stay in the audit", async () => {
    await create(t.admin, "remote-reborn");
    await writePolicyAndDelete(t.admin, "remote-reborn");
    expect(hindsight.banks.has("remote-reborn")).toBe(false);
    await expectPolicyGoneButAudited("remote-reborn");

    expect((await create(t.admin, "remote-reborn")).bank_created).toBe(true);
    await expectFreshStart(t.admin, "remote-reborn");
    expect(hindsight.violations).toEqual([]);
  });

  it("a member's new bank under a deleted one's id inherits no policy", async () => {
    await create(t.admin, "remote-handed-on");
    await writePolicyAndDelete(t.admin, "remote-handed-on");
    expect((await create(alice, "remote-handed-on")).bank_created).toBe(true);
    await expectFreshStart(t.admin, "remote-handed-on");
  });
});
