import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openPostgres } from "@/db/client";
import { jobLeases } from "@/db/schema";
import { claimJob, type ExclusiveJob, finishJob, renewJob, tryRunJob } from "@/lib/services/jobs/exclusive-job";
import { useTestApp } from "./support/app";

const t = useTestApp();
const HOUR = 3_600_000;
const job = (name: string, intervalMs = HOUR, leaseMs = 60_000): ExclusiveJob => ({ name, intervalMs, leaseMs });

describe("jobs that run one at a time across processes", () => {
  it("is claimed by one holder, and not again until its interval has passed since it finished", async () => {
    const j = job("once-an-hour");
    expect(await claimJob(t.app.db, j, "a")).toBe(true);
    expect(await claimJob(t.app.db, j, "b")).toBe(false);
    await finishJob(t.app.db, j, "a");
    expect(await claimJob(t.app.db, j, "b")).toBe(false);
    await t.app.db.update(jobLeases).set({ finishedAt: sql`now() - interval '61 minutes'` }).where(eq(jobLeases.job, j.name));
    expect(await claimJob(t.app.db, j, "b")).toBe(true);
  });

  it("lets another holder take over a lease that expired (its holder died), and the old holder then loses it", async () => {
    const j = job("crashy");
    expect(await claimJob(t.app.db, j, "a")).toBe(true);
    await t.app.db.update(jobLeases).set({ leaseUntil: sql`now() - interval '1 second'` }).where(eq(jobLeases.job, j.name));
    expect(await claimJob(t.app.db, j, "b")).toBe(true);
    expect(await renewJob(t.app.db, j, "a")).toBe(false);
    await finishJob(t.app.db, j, "a"); // a late finish of the old holder changes nothing
    const [row] = await t.app.db.select().from(jobLeases).where(eq(jobLeases.job, j.name));
    expect(row).toMatchObject({ holder: "b", finishedAt: null });
  });

  it("records a failed run as a run and frees the lease", async () => {
    const j = job("fails");
    await expect(tryRunJob(t.app.db, j, async () => Promise.reject(new Error("upstream down")), "a")).rejects.toThrow("upstream down");
    const [row] = await t.app.db.select().from(jobLeases).where(eq(jobLeases.job, j.name));
    expect(row!.holder).toBeNull();
    expect(row!.finishedAt).not.toBeNull();
    expect(await tryRunJob(t.app.db, j, async () => {}, "b")).toBe(false);
  });
});

describe.runIf(process.env.TEST_DB === "postgres")("two processes racing one job on PostgreSQL", () => {
  const handles: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const h of handles) await h.close();
  });

  it("runs it once, never twice at the same time, however the timers fire", async () => {
    const second = await openPostgres(t.databaseUrl!);
    handles.push(second);
    const databases = [t.app.db, second.db];
    const j = job("raced");
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    const work = async () => {
      runs++;
      maxRunning = Math.max(maxRunning, ++running);
      await new Promise((r) => setTimeout(r, 50));
      running--;
    };
    const attempts = Array.from({ length: 40 }, (_, i) => tryRunJob(databases[i % 2]!, j, work, `holder-${i}`));
    const ran = await Promise.all(attempts);
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
    expect(maxRunning).toBe(1);
  });
});
