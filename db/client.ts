import path from "node:path";
import { mkdirSync } from "node:fs";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { boundedClient, DATABASE_WAIT_MS } from "./bounded-client";
import * as schema from "./schema";

/** One interface over PGlite and PostgreSQL: domain code never knows which it has. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

/**
 * Opens PostgreSQL through postgres.js. Unless `bounded` is false (migrations, which may
 * wait for another process's lock), every query and transaction is bounded in time on
 * both sides: the client gives up after DATABASE_WAIT_MS (db/bounded-client.ts) and the
 * server cancels statements that run longer and ends transactions left idle.
 */
export async function openPostgres(url: string, options: { max?: number; bounded?: boolean } = {}): Promise<DatabaseHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const bounded = options.bounded ?? true;
  const client = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // Fail fast while the server is down so requests answer 503 instead of hanging.
    connect_timeout: 4,
    idle_timeout: 60,
    connection: bounded
      ? { statement_timeout: DATABASE_WAIT_MS, idle_in_transaction_session_timeout: 3 * DATABASE_WAIT_MS }
      : {},
  });
  return {
    db: drizzle(bounded ? boundedClient(client) : client, { schema }) as unknown as Database,
    kind: "postgres",
    close: () => client.end({ timeout: 5 }),
  };
}

/** Opens the embedded PGlite database in `dataDir` (or in memory when null). */
export async function openPglite(dataDir: string | null): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  let client;
  if (dataDir) {
    const dir = path.join(dataDir, "pglite");
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  } else {
    client = new PGlite();
  }
  await client.waitReady;
  return {
    db: drizzle(client, { schema }) as unknown as Database,
    kind: "pglite",
    close: () => client.close(),
  };
}

export { schema };
