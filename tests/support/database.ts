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
  const database = await freshServerDatabase(adminUrl, "bt_test");
  const handle = await openPostgres(database.url);
  await runMigrations(handle, database.url);
  return {
    handle,
    url: database.url,
    close: async () => {
      await handle.close();
      await database.drop();
    },
  };
}

/** A new, empty database named `{prefix}_{random}` on the server of `serverUrl` (one where it may create databases), dropped again by `drop`. */
export async function freshServerDatabase(serverUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: postgres } = await import("postgres");
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
