/**
 * CONTRACT §10: concurrent requests on one resource never produce a 5xx, and invariants hold
 * under any interleaving. Each case fires two requests at once, round after round. They
 * only truly interleave on PostgreSQL; on PGlite (one connection) they must still answer
 * cleanly.
 */
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { ADMIN_CHANGE_LOCK } from "@/lib/services/identity/users";
import { type ApiResponse, as, type Client, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";

const ROUNDS = 50;
const t = useTestApp();
const market = useMarketplace(t);
let alice: Client;

beforeAll(async () => {
  market.setFile("/race/templates.json", catalog(catalogEntry("racer"), catalogEntry("other")));
  alice = await t.user("alice");
});

/** Fails with the whole answer when its status is not one of `allowed`; every 4xx must be problem+json. */
function expectAnswer(label: string, res: ApiResponse, allowed: number[]): void {
  const where = `${label}: ${res.status} ${res.text}`;
  expect(res.status, where).toBeLessThan(500);
  expect(allowed, where).toContain(res.status);
  if (res.status >= 400) expect(res.headers.get("content-type"), where).toMatch(/^application\/problem\+json/);
}

const problemType = (res: ApiResponse) => String(res.body?.type ?? "");

async function rounds(run: (round: number) => Promise<void>): Promise<void> {
  for (let round = 0; round < ROUNDS; round++) await run(round);
}

describe("a write racing a delete of its target", () => {
  it("template PATCH vs DELETE: 200, 204 or 404, never 5xx", async () => {
    await rounds(async (i) => {
      const path = `/ext/svc/me/templates/patched-${i}`;
      expect((await alice.post("/ext/svc/me/templates", { id: `patched-${i}`, name: "P", manifest: manifest() })).status).toBe(200);
      const [patch, remove] = await Promise.all([alice.patch(path, { name: "Renamed", category: "ops" }), alice.delete(path)]);
      expectAnswer("patch", patch, [200, 404]);
      expectAnswer("delete", remove, [204, 404]);
      expect((await alice.get(path)).status).toBe(404);
    });
  });

  it("service-account key creation vs service-account deletion: 201, 204 or 404", async () => {
    await rounds(async (i) => {
      const sa = `bot-${i}`;
      expect((await alice.post("/ext/svc/me/service-accounts", { id: sa })).status).toBe(201);
      const [key, remove] = await Promise.all([
        alice.post(`/ext/svc/me/service-accounts/${sa}/api-keys`, { description: "racing" }),
        alice.delete(`/ext/svc/me/service-accounts/${sa}`),
      ]);
      expectAnswer("create key", key, [201, 404]);
      expectAnswer("delete service account", remove, [204, 404]);
      // A key created just before the deletion went with its service account.
      expect((await alice.get(`/ext/svc/me/service-accounts/${sa}/api-keys`)).status).toBe(404);
    });
  });

  it("user PATCH vs user DELETE: 200, 204 or 404", async () => {
    await rounds(async (i) => {
      const id = `doomed-${i}`;
      expect((await t.admin.post("/ext/svc/admin/users", { id })).status).toBe(201);
      // Alternate plain edits with deactivation, which also ends sessions in the same transaction.
      const patch = i % 2 === 0 ? { display_name: "Renamed", email: "x@example.com" } : { is_active: false };
      const [patched, removed] = await Promise.all([
        t.admin.patch(`/ext/svc/admin/users/${id}`, patch),
        t.admin.delete(`/ext/svc/admin/users/${id}`),
      ]);
      expectAnswer("patch user", patched, [200, 404]);
      expectAnswer("delete user", removed, [204, 404]);
      expect((await t.admin.get(`/ext/svc/admin/users/${id}`)).status).toBe(404);
    });
  });

  it("admin key creation for a user vs that user's deletion: 201, 204 or 404", async () => {
    await rounds(async (i) => {
      const id = `keyed-${i}`;
      expect((await t.admin.post("/ext/svc/admin/users", { id })).status).toBe(201);
      const [key, removed] = await Promise.all([
        t.admin.post(`/ext/svc/admin/users/${id}/api-keys`, {}),
        t.admin.delete(`/ext/svc/admin/users/${id}`),
      ]);
      expectAnswer("create key", key, [201, 404]);
      expectAnswer("delete user", removed, [204, 404]);
    });
  });
});

describe("the last active admin under races", () => {
  let first: Client;
  let second: Client;
  const admins = { first: "admin-one", second: "admin-two" } as const;
  const onPostgres = process.env.TEST_DB === "postgres";

  beforeAll(async () => {
    first = await t.user(admins.first, "admin");
    second = await t.user(admins.second, "admin");
    // Leave exactly two active admins: the bootstrap admin steps aside until the end.
    expect((await first.patch("/ext/svc/admin/users/admin", { role: "member" })).status).toBe(200);
  });
  afterAll(async () => {
    // Straight in the database, so a failed case cannot leave the later ones without their admin.
    await t.app.db.update(users).set({ role: "admin", isActive: true }).where(eq(users.id, "admin"));
  });

  /** Read from the database itself, so the answer never depends on who may still call the API. */
  async function activeAdmins(): Promise<string[]> {
    const rows = await t.app.db
      .select()
      .from(users)
      .where(and(eq(users.role, "admin"), eq(users.isActive, true)));
    return rows.map((row) => row.id);
  }

  /** Makes admin-one and admin-two the only active admins again. */
  async function restoreBoth(): Promise<void> {
    await t.app.db
      .update(users)
      .set({ role: "admin", isActive: true })
      .where(inArray(users.id, [admins.first, admins.second]));
    expect((await activeAdmins()).sort()).toEqual([admins.first, admins.second]);
  }

  /**
   * Holds the lock that serialises admin changes (PostgreSQL only) until both requests wait
   * for it, that is until both are past authentication: then the loser's answer can only
   * come from the last-admin check.
   */
  async function withBothWaiting<T>(fire: () => Promise<T>): Promise<T> {
    const { default: postgres } = await import("postgres");
    const holder = postgres(t.databaseUrl!, { max: 1, onnotice: () => {} });
    try {
      await holder`select pg_advisory_lock(${ADMIN_CHANGE_LOCK})`;
      const answers = fire();
      const deadline = Date.now() + 3000;
      for (;;) {
        const [row] = await holder`select count(*)::int as n from pg_locks
          where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`;
        if (row!.n >= 2) break;
        if (Date.now() > deadline) throw new Error("the two requests never both waited for the admin-change lock");
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await holder`select pg_advisory_unlock(${ADMIN_CHANGE_LOCK})`;
      return await answers;
    } finally {
      await holder.end();
    }
  }

  /**
   * Races `firstMove` (by admin-one against admin-two) with `secondMove` (the reverse):
   * exactly one wins and an active admin always remains. The loser is refused as the last
   * admin (409) when both got past authentication first; when it authenticated only after
   * the winner committed, it is no admin any more (403) or no active user (401). With
   * `bothWaiting` the first case is forced, so the answers are exactly one 200 and one 409.
   */
  async function raceRounds(firstMove: Record<string, unknown>, secondMove: Record<string, unknown>, bothWaiting = false) {
    await rounds(async (i) => {
      const fire = () =>
        Promise.all([
          first.patch(`/ext/svc/admin/users/${admins.second}`, firstMove),
          second.patch(`/ext/svc/admin/users/${admins.first}`, secondMove),
        ]);
      const [byFirst, bySecond] = bothWaiting ? await withBothWaiting(fire) : await fire();
      const loserStatuses = bothWaiting ? [409] : [401, 403, 409];
      expectAnswer(`round ${i} admin-one`, byFirst, [200, ...loserStatuses]);
      expectAnswer(`round ${i} admin-two`, bySecond, [200, ...loserStatuses]);
      const [winner, loser] = byFirst.status === 200 ? [byFirst, bySecond] : [bySecond, byFirst];
      expect(winner.status, `round ${i}: one request wins`).toBe(200);
      expect(loser.status, `round ${i}: only one request wins`).not.toBe(200);
      if (loser.status === 409) expect(problemType(loser)).toMatch(/:last-admin$/);
      expect(await activeAdmins(), `round ${i}`).toHaveLength(1);
      await restoreBoth();
    });
  }

  it("two admins demoting each other: one wins, the other is refused, an active admin always remains", async () => {
    await raceRounds({ role: "member" }, { role: "member" });
  });

  it.runIf(onPostgres)("two admins demoting each other, both past authentication: one 200, one 409 last-admin", async () => {
    await raceRounds({ role: "member" }, { role: "member" }, true);
  });

  it("deactivation racing demotion: one wins, an active admin always remains", async () => {
    await raceRounds({ is_active: false }, { role: "member" });
  });

  it.runIf(onPostgres)("deactivation racing demotion, both past authentication: one 200, one 409 last-admin", async () => {
    await raceRounds({ is_active: false }, { role: "member" }, true);
  });

  it("two admins deactivating each other: one wins, an active admin always remains", async () => {
    await raceRounds({ is_active: false }, { is_active: false });
  });

  it("deleting the other admin racing a demotion: one wins, an active admin always remains", async () => {
    await rounds(async (i) => {
      const doomed = `admin-doomed-${i}`;
      // The bootstrap admin stepped aside, so admin-one creates the doomed admin and its key.
      expect((await first.post("/ext/svc/admin/users", { id: doomed, role: "admin" })).status).toBe(201);
      const doomedClient = as((await first.post(`/ext/svc/admin/users/${doomed}/api-keys`, {})).body.token);
      // Two active admins for the round: admin-one and the doomed one.
      expect((await first.patch(`/ext/svc/admin/users/${admins.second}`, { role: "member" })).status).toBe(200);
      const [removed, demoted] = await Promise.all([
        first.delete(`/ext/svc/admin/users/${doomed}`),
        doomedClient.patch(`/ext/svc/admin/users/${admins.first}`, { role: "member" }),
      ]);
      // As above: 409 from the check, or 403/401 for a request that authenticated after the other won.
      expectAnswer(`round ${i} delete`, removed, [204, 403, 409]);
      expectAnswer(`round ${i} demote`, demoted, [200, 401, 409]);
      expect([removed.status === 204, demoted.status === 200].filter(Boolean), `round ${i}`).toHaveLength(1);
      expect(await activeAdmins(), `round ${i}`).toHaveLength(1);
      await t.app.db.delete(users).where(eq(users.id, doomed));
      await restoreBoth();
    });
  });
});

describe("template writes racing their source's deletion", () => {
  const sourcePath = (name: string) => `/ext/svc/me/template-sources/${name}`;

  it("install vs source DELETE: 200 or 404, and 204", async () => {
    await rounds(async (i) => {
      const name = `inst-src-${i}`;
      expect((await alice.post("/ext/svc/me/template-sources", { url: `${market.url}/race`, alias: name })).status).toBe(201);
      const [installed, removed] = await Promise.all([
        alice.post("/ext/svc/me/templates/racer/install", { source_name: name, alias_id: `installed-${i}` }),
        alice.delete(sourcePath(name)),
      ]);
      expectAnswer("install", installed, [200, 404]);
      expectAnswer("delete source", removed, [204, 404]);
    });
  });

  it("update vs source DELETE: 200 or 409 source-gone, and 204", async () => {
    await rounds(async (i) => {
      const name = `upd-src-${i}`;
      const id = `updated-${i}`;
      expect((await alice.post("/ext/svc/me/template-sources", { url: `${market.url}/race`, alias: name })).status).toBe(201);
      expect((await alice.post("/ext/svc/me/templates/racer/install", { source_name: name, alias_id: id })).status).toBe(200);
      const [updated, removed] = await Promise.all([
        alice.post(`/ext/svc/me/templates/${id}/update?force=true`),
        alice.delete(sourcePath(name)),
      ]);
      expectAnswer("update", updated, [200, 409]);
      if (updated.status === 409) expect(problemType(updated)).toMatch(/:source-gone$/);
      expectAnswer("delete source", removed, [204]);
    });
  });

  it("update vs template PATCH: never 5xx, and local edits are never overwritten without force", async () => {
    expect((await alice.post("/ext/svc/me/template-sources", { url: `${market.url}/edits`, alias: "edit-src" })).status).toBe(201);
    await rounds(async (i) => {
      const id = `edited-${i}`;
      const path = `/ext/svc/me/templates/${id}`;
      market.setFile("/edits/templates.json", catalog(catalogEntry("racer", { description: `before ${i}` })));
      expect((await alice.post("/ext/svc/me/templates/racer/install", { source_name: "edit-src", alias_id: id })).status).toBe(200);
      // A new revision upstream, so the update has something to write.
      market.setFile("/edits/templates.json", catalog(catalogEntry("racer", { description: `after ${i}` })));
      const [updated, patched] = await Promise.all([alice.post(`${path}/update`), alice.patch(path, { name: "Mine" })]);
      expectAnswer("update", updated, [200, 409]);
      if (updated.status === 409) expect(problemType(updated)).toMatch(/:local-edits$/);
      expectAnswer("patch", patched, [200]);
      const after = await alice.get(path);
      expect(after.body.name, `round ${i}`).toBe("Mine");
      expect(after.body.locally_modified, `round ${i}`).toBe(true);
    });
  });

  it("update vs template DELETE: 200 or 404, and 204", async () => {
    await rounds(async (i) => {
      const id = `deleted-${i}`;
      const path = `/ext/svc/me/templates/${id}`;
      expect((await alice.post("/ext/svc/me/templates/racer/install", { source_name: "edit-src", alias_id: id })).status).toBe(200);
      const [updated, removed] = await Promise.all([alice.post(`${path}/update?force=true`), alice.delete(path)]);
      expectAnswer("update", updated, [200, 404]);
      expectAnswer("delete", removed, [204]);
      expect((await alice.get(path)).status).toBe(404);
    });
  });
});

describe("banks and policies", () => {
  beforeAll(async () => {
    expect((await alice.post("/ext/svc/me/templates", { id: "bank-tpl", name: "Bank", manifest: manifest() })).status).toBe(200);
  });

  it("bank import vs bank DELETE: the import answers 200, the delete 204 or 404", async () => {
    await rounds(async (i) => {
      const bankId = `bank-${i}`;
      expect((await alice.post("/ext/svc/banks", { bank_id: bankId, template: "bank-tpl" })).status).toBe(200);
      const [imported, removed] = await Promise.all([
        alice.post("/ext/svc/banks", { bank_id: bankId, template: "bank-tpl", name: "Again" }),
        alice.delete(`/ext/svc/banks/${bankId}`),
      ]);
      expectAnswer("import", imported, [200]);
      expectAnswer("delete bank", removed, [204, 404]);
    });
  });

  it("policy PUT vs policy DELETE: 200, and 204 or 404", async () => {
    expect((await alice.post("/ext/svc/banks", { bank_id: "policy-bank", template: "bank-tpl" })).status).toBe(200);
    const document = { version: "2026-03-24", default_strategy: "s" };
    await rounds(async () => {
      const [put, removed] = await Promise.all([
        alice.put("/ext/svc/banks/policy-bank/policy", { document }),
        alice.delete("/ext/svc/banks/policy-bank/policy"),
      ]);
      expectAnswer("put policy", put, [200]);
      expectAnswer("delete policy", removed, [204, 404]);
    });
  });

  it("an owner's policy PUT vs the bank's DELETE: 200 or 403, and 204", async () => {
    const document = { version: "2026-03-24", default_strategy: "s" };
    await rounds(async (i) => {
      const bankId = `owned-${i}`;
      expect((await alice.post("/ext/svc/banks", { bank_id: bankId, template: "bank-tpl" })).status).toBe(200);
      const [put, removed] = await Promise.all([
        alice.put(`/ext/svc/banks/${bankId}/policy`, { document }),
        alice.delete(`/ext/svc/banks/${bankId}`),
      ]);
      expectAnswer("put policy", put, [200, 403]);
      expectAnswer("delete bank", removed, [204]);
    });
  });
});

describe("two creates of one id", () => {
  /** `created`: the status of the create that wins (200 for a template, CONTRACT §15; 201 for the others). */
  async function oneWins(label: string, created: number, create: () => Promise<ApiResponse>) {
    const answers = await Promise.all([create(), create()]);
    for (const res of answers) expectAnswer(label, res, [created, 409]);
    expect(answers.map((r) => r.status).sort(), label).toEqual([created, 409]);
    expect(problemType(answers.find((r) => r.status === 409)!)).toMatch(/:id-taken$/);
  }

  it("templates, users, service accounts and sources: one created, one 409 id-taken", async () => {
    await rounds(async (i) => {
      await oneWins("template", 200, () => alice.post("/ext/svc/me/templates", { id: `twin-${i}`, name: "Twin", manifest: manifest() }));
      await oneWins("user", 201, () => t.admin.post("/ext/svc/admin/users", { id: `twin-${i}` }));
      await oneWins("service account", 201, () => alice.post("/ext/svc/me/service-accounts", { id: `twin-${i}` }));
      await oneWins("source", 201, () => alice.post("/ext/svc/me/template-sources", { url: `${market.url}/race`, alias: `twin-${i}` }));
    });
  });
});
