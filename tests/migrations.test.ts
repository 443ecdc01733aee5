import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openPostgres } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { loadConfig } from "@/lib/platform/config";
import { startApp } from "@/lib/server/app";

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
