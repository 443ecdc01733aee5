import { randomBytes } from "node:crypto";
import { type DatabaseHandle, openPglite, openPostgres } from "@/db/client";
import { runMigrations } from "@/db/migrate";

/** A new, empty database on the server of `serverUrl` (one where the bench may create databases), dropped again by `drop`. */
export async function freshServerDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: postgres } = await import("postgres");
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const name = `bt_bench_${randomBytes(6).toString("hex")}`;
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

/**
 * Runs `bench` on a fresh in-memory PGlite and, given `serverUrl` (a server where it may create
 * a database), on a fresh PostgreSQL database dropped afterwards; true when every run was.
 */
export async function onEachDatabase(
  serverUrl: string | undefined,
  bench: (name: string, handle: DatabaseHandle) => Promise<boolean>,
): Promise<boolean> {
  const pglite = await openPglite(null);
  await runMigrations(pglite);
  let ok = await bench("PGlite", pglite);
  await pglite.close();

  if (serverUrl) {
    const database = await freshServerDatabase(serverUrl);
    try {
      const handle = await openPostgres(database.url);
      await runMigrations(handle, database.url);
      ok = (await bench("PostgreSQL", handle)) && ok;
      await handle.close();
    } finally {
      await database.drop();
    }
  }
  return ok;
}
