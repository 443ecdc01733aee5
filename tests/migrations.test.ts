import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Database, migrationsFolder, openPostgres } from "@/db/client";
import { runMigrations, takeMigrationReports } from "@/db/migrate";
import {
  auditEntries,
  bankDirectives,
  bankImports,
  bankMentalModels,
  bankPolicies,
  bankPolicyChanges,
  banks,
  idempotencyKeys,
  migrationReports,
  users,
} from "@/db/schema";
import { loadConfig } from "@/lib/platform/config";
import { startApp } from "@/lib/server/app";
import { freshDatabase } from "./support/database";

describe.runIf(process.env.TEST_DB === "postgres")("start-up on one PostgreSQL database", () => {
  it("lets several processes migrate and bootstrap at once, and migrating again changes nothing", async () => {
    const { default: postgres } = await import("postgres");
    const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    const name = `bt_test_${randomBytes(6).toString("hex")}`;
    await admin.unsafe(`create database ${name}`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const config = loadConfig({
      DATABASE_URL: url.toString(),
      SECRET_KEY: randomBytes(32).toString("hex"),
      BOOTSTRAP_ADMIN_TOKEN: "t".repeat(40),
    });
    try {
      // Four "processes" start together: each opens its own pool, migrates and bootstraps.
      const apps = await Promise.all(Array.from({ length: 4 }, () => startApp(config, () => {})));
      const [first] = apps;
      const applied = await first!.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      const appliedRows = (applied as unknown as { n: number }[])[0]!.n;
      const users = await first!.db.execute(sql`select count(*)::int as n from users`);
      expect((users as unknown as { n: number }[])[0]!.n).toBe(1);
      const handle = await openPostgres(url.toString());
      await runMigrations(handle, url.toString());
      const again = await handle.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect((again as unknown as { n: number }[])[0]!.n).toBe(appliedRows);
      await handle.close();
      await Promise.all(apps.map((app) => app.database.close()));
    } finally {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});

/** Runs one migration's statements, as the migrator does: in one transaction. */
async function runMigrationStep(db: Database, tag: string) {
  const text = readFileSync(path.join(migrationsFolder, `${tag}.sql`), "utf8");
  await db.transaction(async (tx) => {
    for (const statement of text.split("--> statement-breakpoint")) await tx.execute(sql.raw(statement));
  });
}

const ORPHAN_MIGRATION = "0014_remove_orphan_bank_policies";

describe("removing the bank policies deleted banks left behind (CONTRACT §19)", () => {
  const requests = { count: 0 };
  /** An audit entry at minute `minute` of one day, in the order written (its seq). */
  const entry = (action: string, bankId: string, minute: number, fields: Partial<typeof auditEntries.$inferInsert> = {}) => ({
    actorType: "user" as const,
    actorId: "admin",
    userId: "admin",
    action,
    target: `/ext/svc/banks/${encodeURIComponent(bankId)}${action.startsWith("bank.policy") ? "/policy" : ""}`,
    targetType: action.startsWith("bank.policy") ? "policy" : "bank",
    targetId: bankId,
    at: at(minute),
    requestId: `req-${++requests.count}`,
    ...fields,
  });
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
  const deletion = (bankId: string, minute: number, owner: string | null) =>
    entry("bank.delete", bankId, minute, { before: { bank_id: bankId, owner }, after: null });
  const policy = (bankId: string, minute: number) => ({
    bankId,
    document: { version: "2026-03-24", default_strategy: bankId },
    createdAt: at(minute),
    updatedAt: at(minute),
  });
  const change = (bankId: string, minute: number) => ({
    bankId,
    actor: "admin",
    at: at(minute),
    before: null,
    after: { version: "2026-03-24" },
  });

  it("removes those of embedded banks deleted through us, keeps every other, and reports both", async () => {
    const database = await freshDatabase();
    try {
      const { db } = database.handle;
      // A database that never held a policy (a new one) has nothing to report.
      await runMigrationStep(db, ORPHAN_MIGRATION);
      expect(await takeMigrationReports(db)).toEqual([]);

      // Each bank id's story, in time order (minutes); the comment says what must remain.
      await db.insert(auditEntries).values([
        // gone: alice's bank, its policy written twice, then deleted by alice. Removed.
        entry("bank.policy.put", "gone", 1),
        entry("bank.policy.put", "gone", 2),
        deletion("gone", 3, "alice"),
        // team:gone: the same with an id an audit path encodes. Removed.
        entry("bank.policy.put", "team:gone", 1),
        deletion("team:gone", 3, "alice"),
        // history-only: its policy deleted, then the bank. Its history is removed.
        entry("bank.policy.put", "history-only", 1),
        entry("bank.policy.delete", "history-only", 2),
        deletion("history-only", 3, "alice"),
        // live: deleted once, then created again (a banks row). Kept.
        deletion("live", 1, "alice"),
        entry("bank.import", "live", 2),
        entry("bank.policy.put", "live", 3),
        // ahead: a policy an admin put before any bank of that id. Kept.
        entry("bank.policy.put", "ahead", 1),
        // put-after: deleted, then an admin put a policy for the bank to come. Kept.
        deletion("put-after", 1, "alice"),
        entry("bank.policy.put", "put-after", 2),
        // path-only: as put-after, the later write's entry naming the bank by its path alone. Kept.
        deletion("path:only", 1, "alice"),
        entry("bank.policy.put", "path:only", 2, { targetType: null, targetId: null }),
        // imported-again: deleted, then imported again through us (a recorded import). Kept.
        deletion("imported-again", 1, "alice"),
        // remote-gone: a Hindsight bank deleted through us (no owner). Kept and named.
        entry("bank.policy.put", "remote-gone", 1),
        deletion("remote-gone", 2, null),
      ]);
      await db.insert(banks).values({ id: "live", name: "live" });
      await db
        .insert(bankImports)
        .values({ bankId: "imported-again", template: "server/t", actor: "admin", importResult: {}, appliedAt: at(2) });
      await db
        .insert(bankPolicies)
        .values([
          ...[policy("gone", 2), policy("team:gone", 1), policy("live", 3), policy("ahead", 1), policy("put-after", 2)],
          ...[policy("path:only", 2), policy("imported-again", 0), policy("remote-gone", 1)],
        ]);
      await db
        .insert(bankPolicyChanges)
        .values([
          ...[change("gone", 1), change("gone", 2), change("team:gone", 1), change("history-only", 1), change("history-only", 2)],
          ...[change("live", 3), change("put-after", 2), change("remote-gone", 1)],
        ]);
      const auditRows = (await db.select().from(auditEntries)).length;

      await runMigrationStep(db, ORPHAN_MIGRATION);

      const policies = await db.select({ bankId: bankPolicies.bankId }).from(bankPolicies).orderBy(bankPolicies.bankId);
      expect(policies.map((p) => p.bankId)).toEqual(["ahead", "imported-again", "live", "path:only", "put-after", "remote-gone"]);
      const history = await db.select({ bankId: bankPolicyChanges.bankId }).from(bankPolicyChanges).orderBy(bankPolicyChanges.bankId);
      expect(history.map((h) => h.bankId)).toEqual(["live", "put-after", "remote-gone"]);
      // Every audit entry stays: the removed policies' documents with them.
      expect((await db.select().from(auditEntries)).length).toBe(auditRows);

      const [report, ...more] = await takeMigrationReports(db);
      expect(more).toEqual([]);
      expect(report).toBe(
        `Migration ${ORPHAN_MIGRATION}: Bank policies left behind by deleted banks (CONTRACT §19): removed 2, with 5 entries of their history; their documents stay in the audit log.` +
          " Kept 1 whose deleted bank had no owner (a Hindsight bank, or one whose owner was deleted), as Hindsight may hold a bank of that id again: remote-gone." +
          " An admin may delete them (DELETE /ext/svc/banks/{bank_id}/policy).",
      );
      // Printed once: the next start finds nothing new.
      expect(await takeMigrationReports(db)).toEqual([]);

      // Running it again removes nothing more.
      await runMigrationStep(db, ORPHAN_MIGRATION);
      expect(await takeMigrationReports(db)).toEqual([
        `Migration ${ORPHAN_MIGRATION}: Bank policies left behind by deleted banks (CONTRACT §19): removed 0, with 0 entries of their history; their documents stay in the audit log.` +
          " Kept 1 whose deleted bank had no owner (a Hindsight bank, or one whose owner was deleted), as Hindsight may hold a bank of that id again: remote-gone." +
          " An admin may delete them (DELETE /ext/svc/banks/{bank_id}/policy).",
      ]);
    } finally {
      await database.close();
    }
  });

  it.runIf(process.env.TEST_DB === "postgres")("prints a report at start-up, once, in the process that starts first", async () => {
    const database = await freshDatabase();
    const config = loadConfig({
      DATABASE_URL: database.url!,
      SECRET_KEY: randomBytes(32).toString("hex"),
      BOOTSTRAP_ADMIN_TOKEN: "t".repeat(40),
    });
    try {
      await database.handle.db.insert(migrationReports).values({ migration: ORPHAN_MIGRATION, message: "Removed 3." });
      const lines: string[][] = [[], []];
      const apps = await Promise.all(lines.map((printed) => startApp(config, (line) => printed.push(line))));
      const reports = lines.flat().filter((line) => line.startsWith("Migration "));
      expect(reports).toEqual([`Migration ${ORPHAN_MIGRATION}: Removed 3.`]);
      await Promise.all(apps.map((app) => app.database.close()));
    } finally {
      await database.close();
    }
  });
});

const KEY_TOKENS_MIGRATION = "0015_clear_stored_key_tokens";

describe("clearing the API key tokens stored idempotent answers held (CONTRACT §19)", () => {
  it("sets each created key's token null in its stored answer, keeps every other byte and row, and reports it", async () => {
    const database = await freshDatabase();
    try {
      const { db } = database.handle;
      await runMigrationStep(db, KEY_TOKENS_MIGRATION);
      expect(await takeMigrationReports(db)).toEqual([]);

      await db.insert(users).values({ id: "alice", displayName: "Alice" });
      // A description may hold the same words: inside a JSON string their quotes are escaped.
      const keyAnswer = (token: string) =>
        JSON.stringify({ id: "k1", prefix: token.slice(0, 10), description: 'say "token":"x"', scope: "write", token });
      const row = (key: string, fingerprint: string, body: string) => ({
        userId: "alice",
        actorSa: "",
        key,
        fingerprint,
        state: "done" as const,
        claimId: key,
        status: 201,
        headers: { "content-type": "application/json" },
        body,
      });
      const ownToken = `bt_${"a".repeat(43)}`;
      const botToken = `bt_${"b-_".repeat(14)}x`;
      const sourceAnswer = JSON.stringify({ name: "s", description: '"token":"kept"', token: "not-a-key" });
      await db
        .insert(idempotencyKeys)
        .values([
          row("own", "POST /ext/svc/me/api-keys hash1", keyAnswer(ownToken)),
          row("bot", "POST /ext/svc/me/service-accounts/bot/api-keys?x=1 hash2", keyAnswer(botToken)),
          row("source", "POST /ext/svc/me/template-sources hash3", sourceAnswer),
          row("revoke", "DELETE /ext/svc/me/api-keys/k1 hash4", keyAnswer("bt_other")),
        ]);

      await runMigrationStep(db, KEY_TOKENS_MIGRATION);

      const bodies = Object.fromEntries((await db.select().from(idempotencyKeys)).map((r) => [r.key, r.body]));
      expect(bodies).toEqual({
        own: keyAnswer(ownToken).replace(`"${ownToken}"`, "null"),
        bot: keyAnswer(botToken).replace(`"${botToken}"`, "null"),
        source: sourceAnswer,
        revoke: keyAnswer("bt_other"),
      });
      expect(JSON.parse(bodies.own!)).toMatchObject({ description: 'say "token":"x"', token: null });
      expect(await takeMigrationReports(db)).toEqual([
        `Migration ${KEY_TOKENS_MIGRATION}: Stored idempotent answers held the tokens of 2 API keys in clear (CONTRACT §19): those tokens are now null there; run VACUUM idempotency_keys to drop the rows' earlier versions at once.`,
      ]);

      await runMigrationStep(db, KEY_TOKENS_MIGRATION);
      expect(await takeMigrationReports(db)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe("what each embedded bank's newest import left (CONTRACT §21, migration 0016)", () => {
  it("is the bank's content now, for its newest import only; older imports and Hindsight banks' stay unknown", async () => {
    const database = await freshDatabase();
    try {
      const { db } = database.handle;
      const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
      const imported = (bankId: string, minute: number) => ({
        bankId,
        template: "server/t",
        actor: "admin",
        importResult: {},
        appliedAt: at(minute),
      });
      await db.insert(banks).values([
        { id: "kept", name: "kept", config: { retain_mission: "Keep it." } },
        { id: "empty", name: "empty" },
      ]);
      await db.insert(bankMentalModels).values([
        { bankId: "kept", id: "b", entry: { id: "b", name: "B", source_query: "b?" }, position: 1 },
        { bankId: "kept", id: "a", entry: { id: "a", name: "A", source_query: "a?" }, position: 0 },
      ]);
      await db.insert(bankDirectives).values({ bankId: "kept", name: "D", entry: { name: "D", content: "d" }, position: 0 });
      await db.insert(bankImports).values([imported("kept", 1), imported("kept", 2), imported("empty", 1), imported("in-hindsight", 1)]);

      // The migration's last statement: the others made the table and the column this fills in.
      const statements = readFileSync(path.join(migrationsFolder, "0016_bank_edits_applied_content.sql"), "utf8").split(
        "--> statement-breakpoint",
      );
      await db.execute(sql.raw(statements.at(-1)!));

      const rows = await db.select().from(bankImports).orderBy(bankImports.bankId, bankImports.appliedAt);
      expect(rows.map((row) => [row.bankId, row.appliedAt.toISOString(), row.content])).toEqual([
        ["empty", at(1).toISOString(), { config: {}, mentalModels: [], directives: [] }],
        ["in-hindsight", at(1).toISOString(), null],
        ["kept", at(1).toISOString(), null],
        [
          "kept",
          at(2).toISOString(),
          {
            config: { retain_mission: "Keep it." },
            mentalModels: [
              { id: "a", name: "A", source_query: "a?" },
              { id: "b", name: "B", source_query: "b?" },
            ],
            directives: [{ name: "D", content: "d" }],
          },
        ],
      ]);
    } finally {
      await database.close();
    }
  });
});
