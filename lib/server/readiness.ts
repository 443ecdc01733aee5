import "server-only";
import { sql } from "drizzle-orm";
import { getApp } from "./app";

const TIMEOUT_MS = 3000;

/** Whether the database answers a trivial query within a few seconds. */
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
