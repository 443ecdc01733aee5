import { type DatabaseHandle, openPglite, openPostgres } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { freshServerDatabase } from "@/tests/support/server-database";

/** A new, empty database on the server of `serverUrl` (one where the bench may create databases), dropped again by `drop`. */
export const freshBenchDatabase = (serverUrl: string) => freshServerDatabase(serverUrl, "bt_bench");

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
    const database = await freshBenchDatabase(serverUrl);
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
