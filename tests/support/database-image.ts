import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { type DatabaseHandle, migrationsFolder, openPostgres } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { freshServerDatabase } from "./server-database";

// Migrating a new database is most of what a database test file used to pay before its first
// test (initdb and every migration: 9-23 s on PGlite). The migrated database is made once per
// run instead, and each file gets a copy of it: on PGlite a data directory image loaded into a
// new in-memory instance, on PostgreSQL a `create database … template` of one migrated database.
// Same migrations, same kinds of database; only the copying is new.

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated PGlite data directory, a tarball (PGlite project). */
    pgliteImage: string;
    /** The migrated PostgreSQL database that each file's database copies (postgres project). */
    postgresTemplate: string;
  }
}

/** A name for this migration set and PGlite version: an image made for them stays valid. */
function migrationSetHash(): string {
  const hash = createHash("sha256");
  hash.update(JSON.parse(readFileSync("node_modules/@electric-sql/pglite/package.json", "utf8")).version);
  for (const file of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const full = path.join(migrationsFolder, file);
    if (file.endsWith(".sql") || file.endsWith(".json")) hash.update(file).update(readFileSync(full));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The PGlite image, made when this migration set has none yet. Kept in node_modules/.cache
 * between runs (a fresh clone makes it once); written under a temporary name and renamed, so
 * a run that stops halfway or a second run at once never reads half a file.
 */
async function pgliteImage(): Promise<string> {
  const dir = path.resolve("node_modules/.cache/bank-templates");
  const file = path.join(dir, `pglite-${migrationSetHash()}.tar`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const client = new PGlite();
  try {
    // The one migration path (db/migrate.ts), on a handle around the client whose directory is dumped.
    await runMigrations({ kind: "pglite", db: drizzle(client) } as unknown as DatabaseHandle);
    const image = await client.dumpDataDir("none");
    const partial = `${file}.${randomBytes(4).toString("hex")}.partial`;
    writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await client.close();
  }
  return file;
}

/**
 * A migrated PostgreSQL database for this run, which no one connects to once made (a template
 * must have no sessions while it is copied); dropped when the run ends.
 */
async function postgresTemplate(serverUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  const database = await freshServerDatabase(serverUrl, "bt_template");
  const handle = await openPostgres(database.url, { max: 1 });
  try {
    await runMigrations(handle, database.url);
  } finally {
    await handle.close();
  }
  return { name: new URL(database.url).pathname.slice(1), drop: database.drop };
}

/** Vitest's global set-up, once per project: the migrated database its files copy. */
export default async function setup(project: TestProject) {
  if (project.name !== "postgres") {
    project.provide("pgliteImage", await pgliteImage());
    return;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("TEST_DATABASE_URL is required for the postgres test project");
  const template = await postgresTemplate(serverUrl);
  project.provide("postgresTemplate", template.name);
  return template.drop;
}
