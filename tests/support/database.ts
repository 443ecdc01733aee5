import { randomBytes } from "node:crypto";
import { type DatabaseHandle, openPglite, openPostgres } from "@/db/client";
import { runMigrations } from "@/db/migrate";

/** A new, migrated database of the kind this test project runs on; dropped again by `close`. */
export async function freshDatabase(): Promise<{ handle: DatabaseHandle; url: string | null; close(): Promise<void> }> {
  if (process.env.TEST_DB !== "postgres") {
    const handle = await openPglite(null);
    await runMigrations(handle);
    return { handle, url: null, close: () => handle.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is required for the postgres test project");
  const { default: postgres } = await import("postgres");
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const name = `bt_test_${randomBytes(6).toString("hex")}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString());
  await runMigrations(handle, url.toString());
  return {
    handle,
    url: url.toString(),
    close: async () => {
      await handle.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
