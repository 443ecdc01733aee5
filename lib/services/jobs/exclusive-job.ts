import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { jobLeases } from "@/db/schema";

/**
 * A job that must run one at a time however many processes run it, at most once per
 * interval (the scheduled update check, CONTRACT §13). Each process calls `tryRun` on its
 * own timer; the `job_leases` row decides who runs:
 *
 * - Claiming is one conditional statement: it succeeds only when nobody holds an unexpired
 *   lease and the last run finished at least `intervalMs` ago, so two processes never run
 *   the job at once and a run is never repeated early because several timers fired.
 * - A holder that dies leaves its lease to expire (`leaseMs`); a long run renews the lease
 *   while it works, so it is not taken over halfway.
 * - Finishing records `finished_at` and frees the lease, conditionally on still holding it.
 */
export interface ExclusiveJob {
  name: string;
  intervalMs: number;
  /** How long a claim lasts without renewal; a crashed holder blocks the job this long at most. */
  leaseMs: number;
}

/** One process's identity as a lease holder. */
const HOLDER = `${process.pid}-${randomBytes(6).toString("hex")}`;

const interval = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;

/** Claims the job when it is due and nobody runs it; true when this holder now runs it. */
export async function claimJob(db: Database, job: ExclusiveJob, holder: string = HOLDER): Promise<boolean> {
  const claimed = await db
    .insert(jobLeases)
    .values({ job: job.name, holder, leaseUntil: sql`now() + ${interval(job.leaseMs)}` })
    .onConflictDoUpdate({
      target: jobLeases.job,
      set: { holder, leaseUntil: sql`now() + ${interval(job.leaseMs)}` },
      setWhere: sql`(${jobLeases.leaseUntil} is null or ${jobLeases.leaseUntil} < now())
        and (${jobLeases.finishedAt} is null or ${jobLeases.finishedAt} <= now() - ${interval(job.intervalMs)})`,
    })
    .returning({ job: jobLeases.job });
  return claimed.length === 1;
}

/** Extends a held lease; false when the lease was lost (expired and taken over). */
export async function renewJob(db: Database, job: ExclusiveJob, holder: string = HOLDER): Promise<boolean> {
  const renewed = await db
    .update(jobLeases)
    .set({ leaseUntil: sql`now() + ${interval(job.leaseMs)}` })
    .where(and(eq(jobLeases.job, job.name), eq(jobLeases.holder, holder)))
    .returning({ job: jobLeases.job });
  return renewed.length === 1;
}

/** Records the end of a run and frees the lease, if this holder still has it. */
export async function finishJob(db: Database, job: ExclusiveJob, holder: string = HOLDER): Promise<void> {
  await db
    .update(jobLeases)
    .set({ holder: null, leaseUntil: null, finishedAt: sql`now()` })
    .where(and(eq(jobLeases.job, job.name), eq(jobLeases.holder, holder)));
}

/**
 * Runs `work` if this process wins the claim; renews the lease every third of `leaseMs`
 * while it works. Resolves to whether it ran. A failed run still counts as a run (it is
 * retried after the interval, not in a tight loop).
 */
export async function tryRunJob(
  db: Database,
  job: ExclusiveJob,
  work: (signal: AbortSignal) => Promise<void>,
  holder: string = HOLDER,
): Promise<boolean> {
  if (!(await claimJob(db, job, holder))) return false;
  const lost = new AbortController();
  const renewal = setInterval(
    () => {
      renewJob(db, job, holder).then(
        (held) => held || lost.abort(),
        () => {}, // the database is briefly away: the lease outlives a few missed renewals
      );
    },
    Math.max(1000, Math.floor(job.leaseMs / 3)),
  );
  try {
    await work(lost.signal);
  } finally {
    clearInterval(renewal);
    await finishJob(db, job, holder);
  }
  return true;
}

/**
 * Calls `tryRunJob` every `pollMs` in this process until stopped. Polling more often than
 * the interval costs one cheap statement per poll; the claim keeps runs `intervalMs` apart.
 */
export function scheduleJob(
  db: Database,
  job: ExclusiveJob,
  work: (signal: AbortSignal) => Promise<void>,
  options: { pollMs: number; onError: (error: unknown) => void },
): () => void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    tryRunJob(db, job, work)
      .catch(options.onError)
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(tick, options.pollMs);
  timer.unref();
  return () => clearInterval(timer);
}
