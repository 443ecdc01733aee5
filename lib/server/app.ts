import "server-only";
import { openPglite, openPostgres } from "@/db/client";
import { runMigrations, takeMigrationReports } from "@/db/migrate";
import { type Config, loadConfig } from "@/lib/platform/config";
import { resolveSecretKey } from "@/lib/platform/secret-key";
import { startAuditRetention } from "@/lib/services/audit/retention";
import type { AppContext } from "@/lib/services/context";
import { startIdempotencyPrune } from "@/lib/services/idempotency/keys";
import { startActorCache } from "@/lib/services/identity/actor-cache";
import { bootstrapIdentity } from "@/lib/services/identity/bootstrap";
import { startSignInAddressPrune } from "@/lib/services/ratelimit/known-addresses";
import { startScheduledUpdateChecks } from "@/lib/services/templates/scheduled-check";
import { startWebhookWork } from "@/lib/services/webhooks/jobs";

// Route bundles and instrumentation are separate module graphs in one process: share via globalThis.
const SLOT = Symbol.for("bank-template-console.app");
type Slot = { app?: Promise<AppContext> };
const slots = globalThis as Record<symbol, Slot | undefined>;
slots[SLOT] ??= {};
const slot = slots[SLOT];

/** The process-wide application, started (migrated, bootstrapped) on first use. */
export function getApp(): Promise<AppContext> {
  slot.app ??= startApp(loadConfig()).then(
    (app) => {
      // Whenever start-up succeeds (at boot, or at a later request once the database is up).
      if (app.config.updateCheckIntervalMinutes > 0) startScheduledUpdateChecks(app, app.config.updateCheckIntervalMinutes);
      startAuditRetention(app.db);
      startIdempotencyPrune(app.db);
      startSignInAddressPrune(app.db);
      startWebhookWork(app);
      return app;
    },
    (error) => {
      slot.app = undefined;
      throw error;
    },
  );
  return slot.app;
}

/** Tests install their own application (fresh database, fixed config). */
export function setApp(app: AppContext | undefined): void {
  slot.app = app ? Promise.resolve(app) : undefined;
}

export async function startApp(config: Config, log: (line: string) => void = console.log): Promise<AppContext> {
  const secretKey = resolveSecretKey(config);
  const database = config.databaseUrl
    ? await openPostgres(config.databaseUrl, { max: config.databasePoolSize })
    : await openPglite(config.dataDir);
  await runMigrations(database, config.databaseUrl ?? undefined);
  // What a migration that changed data has to tell the operator, once, where the admin's password shows too.
  for (const line of await takeMigrationReports(database.db)) log(line);
  // Before bootstrapping, so its changes to the admin reach the other processes' caches too.
  await startActorCache(database);
  const app: AppContext = { config, db: database.db, database, secretKey };
  await bootstrapIdentity(app, log);
  return app;
}
