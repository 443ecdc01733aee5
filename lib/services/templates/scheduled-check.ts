import "server-only";
import { randomUUID } from "node:crypto";
import { asc, isNotNull } from "drizzle-orm";
import { templates } from "@/db/schema";
import type { OwnerScope } from "@/lib/contracts/scope";
import { logError } from "@/lib/platform/log";
import { type AppContext, callContext, SCHEDULER, type ServiceContext, silentAudit } from "@/lib/services/context";
import { type ExclusiveJob, scheduleJob, tryRunJob } from "@/lib/services/jobs/exclusive-job";
import { checkOne } from "./upstream";

/**
 * The context a scheduled run works with: the process itself as actor (SCHEDULER), no audit
 * entry (only status is written), and `signal`, which fires only when the run must stop (its
 * lease was lost); by default one that never fires.
 */
export const schedulerContext = (app: AppContext, signal: AbortSignal = new AbortController().signal): ServiceContext =>
  callContext(app, { actor: SCHEDULER, requestId: randomUUID(), signal, audit: silentAudit });

/**
 * The scheduled update check (CONTRACT §13): every UPDATE_CHECK_INTERVAL_MINUTES the update
 * status of every installed template, of every user and the server, is refreshed, one run at
 * a time however many processes run (lib/services/jobs/exclusive-job.ts). A run is one call (one
 * ServiceContext.startedAt), so an unchanged catalog costs one conditional request (one 304) per source.
 */
function updateCheckJob(intervalMs: number): ExclusiveJob {
  // A crashed run blocks the next one at most this long; a live run renews its lease.
  return { name: "template-update-check", intervalMs, leaseMs: 5 * 60_000 };
}

/** One run: checks every installed template; a template's failure is logged and skipped. */
export async function refreshAllUpdateStatuses(ctx: ServiceContext): Promise<{ checked: number; failed: number }> {
  const rows = await ctx.db
    .select({ id: templates.id, scope: templates.scope, owner: templates.owner })
    .from(templates)
    .where(isNotNull(templates.sourceName))
    .orderBy(asc(templates.scope), asc(templates.owner), asc(templates.id));
  let failed = 0;
  for (const row of rows) {
    if (ctx.signal.aborted) break;
    try {
      await checkOne(ctx, { scope: { kind: row.scope, owner: row.owner } as OwnerScope, templateId: row.id });
    } catch {
      failed++; // the template keeps its last status; the next run tries again
    }
  }
  return { checked: rows.length - failed, failed };
}

/** Runs the check once now if it is due and no other process runs it. */
export const runUpdateCheckIfDue = (app: AppContext, intervalMs: number) =>
  tryRunJob(app.db, updateCheckJob(intervalMs), async (signal) => void (await refreshAllUpdateStatuses(schedulerContext(app, signal))));

/** Starts this process's timer; the lease keeps runs one at a time across processes. */
export function startScheduledUpdateChecks(app: AppContext, intervalMinutes: number): () => void {
  const intervalMs = Math.round(intervalMinutes * 60_000);
  return scheduleJob(
    app.db,
    updateCheckJob(intervalMs),
    async (signal) => void (await refreshAllUpdateStatuses(schedulerContext(app, signal))),
    {
      // Poll well inside the interval so a due check starts soon after it is due.
      pollMs: Math.min(15_000, intervalMs / 4),
      onError: (error) => logError("scheduled update check failed", error),
    },
  );
}
