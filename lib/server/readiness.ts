import "server-only";
import cluster from "node:cluster";
import { sql } from "drizzle-orm";
import { getApp } from "./app";

const TIMEOUT_MS = 3000;

/**
 * Whether this process can run a query on its database now: a trivial query through the same
 * pool its requests use, answered within a few seconds. Asked anew each time, never cached, so
 * a process whose connections are lost is not ready even while other processes are (CONTRACT §19).
 */
export async function checkReady(): Promise<{ ok: true } | { ok: false; reason: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the database did not answer in time")), TIMEOUT_MS);
  });
  try {
    const app = await Promise.race([getApp(), timeout]);
    await Promise.race([app.db.execute(sql`select 1`), timeout]);
    return { ok: true };
  } catch {
    return { ok: false, reason: "the database is not reachable" };
  } finally {
    clearTimeout(timer);
  }
}

/** The message a worker sends its primary; lib/server/http-server.cjs reads it under the same name. */
const READINESS_MESSAGE = "bank-templates:readiness";
const REPORT_EVERY_MS = 1000;

/**
 * In a worker process of lib/server/http-server.cjs: tells the primary every second whether
 * this process is ready (checkReady), so that it replaces a worker that cannot reach the
 * database while the others can. Nothing in a process that is not a cluster worker.
 */
export function reportReadinessToPrimary(): void {
  if (!cluster.isWorker) return;
  let checking = false;
  const report = async () => {
    if (checking) return;
    checking = true;
    try {
      const ready = await checkReady();
      if (process.connected) process.send?.({ type: READINESS_MESSAGE, ...ready });
    } catch {
      // The primary is gone (the worker stops on its own then: http-server.cjs).
    } finally {
      checking = false;
    }
  };
  setInterval(report, REPORT_EVERY_MS).unref();
}
