import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { type DatabaseHandle, openPglite, openPostgres } from "@/db/client";
import { freshServerDatabase } from "./server-database";

/**
 * A new, migrated database of the kind this test project runs on; dropped again by `close`.
 * It is a copy of the database the run migrated once (tests/support/database-image.ts).
 */
export async function freshDatabase(): Promise<{ handle: DatabaseHandle; url: string | null; close(): Promise<void> }> {
  if (process.env.TEST_DB !== "postgres") {
    const handle = await openPglite(null, { image: new Blob([readFileSync(inject("pgliteImage"))]) });
    return { handle, url: null, close: () => handle.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is required for the postgres test project");
  const database = await freshServerDatabase(adminUrl, "bt_test", inject("postgresTemplate"));
  const handle = await openPostgres(database.url);
  return {
    handle,
    url: database.url,
    close: async () => {
      await handle.close();
      await database.drop();
    },
  };
}
