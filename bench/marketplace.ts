// The marketplace report of `npm run bench` (CONTRACT §12): how many upstream requests 100
// concurrent installs and a check of 100 templates send, with two app instances (separate
// connection pools, separate in-process flights) on one PostgreSQL database, as two processes would.
import { randomBytes } from "node:crypto";
import { type DatabaseHandle, openPostgres } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { users } from "@/db/schema";
import { loadConfig } from "@/lib/platform/config";
import type { AppContext, AuthenticatedActor } from "@/lib/services/context";
import { createSource } from "@/lib/services/sources/sources";
import { checkForUpdate, installTemplate } from "@/lib/services/templates/upstream";
import { type Marketplace, startMarketplace } from "@/tests/support/marketplace-server";
import { serviceContext } from "@/tests/support/service-context";
import { freshBenchDatabase } from "./databases";

const TEMPLATES = 100;
const CATALOG_PATH = "/bench/templates.json";
const OWNER: AuthenticatedActor = { type: "user", id: "bench", userId: "bench", role: "member", displayName: "Bench" };
const SCOPE = { kind: "personal", owner: "bench" } as const;

const benchManifest = {
  version: "1",
  bank: { retain_mission: "Keep decisions and their reasons." },
  mental_models: [{ id: "decisions", name: "Decisions", source_query: "What was decided?" }],
};

const templateIds = Array.from({ length: TEMPLATES }, (_, i) => `bench-${String(i).padStart(3, "0")}`);

/** Two app instances on one database: what two processes of the app share, and only that. */
async function twoInstances(url: string, market: Marketplace): Promise<{ apps: [AppContext, AppContext]; handles: DatabaseHandle[] }> {
  const config = loadConfig({ DATABASE_URL: url, DATA_DIR: "/nonexistent", MARKETPLACE_ALLOWED_HOSTS: market.host });
  const secretKey = randomBytes(32);
  const handles = [await openPostgres(url), await openPostgres(url)];
  await runMigrations(handles[0]!, url);
  const apps = handles.map((handle) => ({ config, db: handle.db, database: handle, secretKey })) as [AppContext, AppContext];
  return { apps, handles };
}

const catalogRequests = (market: Marketplace) => market.requests.filter((r) => r.path === CATALOG_PATH);

async function measure(market: Marketplace, [first, second]: [AppContext, AppContext]): Promise<string[]> {
  await first.db.insert(users).values({ id: OWNER.userId, displayName: OWNER.displayName });
  await createSource(serviceContext(first, OWNER), { scope: SCOPE, body: { url: `${market.url}/bench`, alias: "bench" } });
  const instance = (i: number) => serviceContext(i % 2 ? second : first, OWNER);

  market.clearRequests();
  await Promise.all(
    templateIds.map((id, i) => installTemplate(instance(i), { kind: "personal", templateId: id, body: { source_name: "bench" } })),
  );
  const installs = catalogRequests(market).length;

  market.clearRequests();
  await Promise.all(templateIds.map((id, i) => checkForUpdate(instance(i), { scope: SCOPE, templateId: id })));
  const conditional = catalogRequests(market).filter((r) => r.headers["if-none-match"] || r.headers["if-modified-since"]).length;
  const unconditional = catalogRequests(market).length - conditional;

  return [
    `${TEMPLATES} concurrent installs, cold cache, 2 processes → ${installs} catalog request${installs === 1 ? "" : "s"} (goal 1)`,
    `check of ${TEMPLATES} templates of one source → ${conditional} conditional catalog request${conditional === 1 ? "" : "s"}` +
      `${unconditional ? ` and ${unconditional} unconditional` : ""} (goal 1)`,
  ];
}

/**
 * Printable lines of the marketplace report. Needs BENCH_DATABASE_URL (a PostgreSQL server
 * where it may create a database); without it, one line saying it was skipped.
 */
export async function marketplaceReport(): Promise<string[]> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) return ["marketplace report skipped: BENCH_DATABASE_URL is not set (it needs PostgreSQL for 2 processes)"];
  const database = await freshBenchDatabase(serverUrl);
  const market = await startMarketplace();
  const handles: DatabaseHandle[] = [];
  try {
    market.setFile(CATALOG_PATH, {
      catalog_version: "1",
      name: "Bench market",
      templates: templateIds.map((id) => ({ id, name: `Template ${id}`, manifest: benchManifest })),
    });
    const instances = await twoInstances(database.url, market);
    handles.push(...instances.handles);
    return await measure(market, instances.apps);
  } finally {
    for (const handle of handles) await handle.close();
    await market.close();
    await database.drop();
  }
}
