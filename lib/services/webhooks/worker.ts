import "server-only";
import { randomBytes } from "node:crypto";
import { logError, logger } from "@/lib/platform/log";
import { type ClaimedDelivery, claimDue, recordOutcome, releaseClaim, type SendDeps, sendDelivery } from "./send";

/**
 * The delivery worker of one server process (CONTRACT §20). Every process runs one; the claims
 * (lib/services/webhooks/send.ts: `FOR UPDATE SKIP LOCKED`, on PGlite the one process's own) keep
 * each attempt to one process. It sends at most `concurrency` attempts at once, outside any request,
 * so a slow or dead receiver holds up nothing but its own attempts, each for 10 s at most.
 */
export interface DeliveryWorkerOptions {
  /** Attempts sent at once by this process (default 8). */
  concurrency?: number;
  /** How often it looks for due attempts while idle (default 1 s). */
  pollMs?: number;
  /** Who claims: unique per worker (default the process id and a random part). */
  holder?: string;
}

export interface DeliveryWorker {
  /** Starts looking for due attempts, every `pollMs` and whenever a sending slot frees up. */
  start(): void;
  /**
   * Sends every attempt due now (by the clock), waiting for each, until none is left; resolves to
   * how many it sent. What the loop does, for a test that moves the clock itself.
   */
  runDue(): Promise<number>;
  /**
   * Stops: claims nothing more, cuts short what is being sent and gives those claims back (another
   * process sends them at once; a receiver may then see one twice, with the same `webhook-id`).
   * Resolves once nothing of it runs.
   */
  stop(): Promise<void>;
}

export function createDeliveryWorker(deps: SendDeps, options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const concurrency = options.concurrency ?? 8;
  const pollMs = options.pollMs ?? 1_000;
  const holder = options.holder ?? `${process.pid}-${randomBytes(6).toString("hex")}`;
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let wake: (() => void) | null = null;
  let loop: Promise<void> | null = null;

  const send = async (delivery: ClaimedDelivery) => {
    const outcome = await sendDelivery(deps, delivery, stopping.signal);
    // Cut short by stop(): no attempt was made, as far as anyone can tell; another process makes it.
    if (!outcome.ok && stopping.signal.aborted) await releaseClaim(deps.db, delivery.id, holder);
    else await recordOutcome(deps.db, delivery, outcome, holder);
  };

  /** Claims what is due for the free slots and starts sending it; resolves to how many it started. */
  const fill = async (): Promise<number> => {
    const free = concurrency - inFlight.size;
    if (free <= 0 || stopping.signal.aborted) return 0;
    const due = await claimDue(deps.db, { holder, limit: free, now: deps.clock() });
    for (const delivery of due) {
      const sending: Promise<void> = send(delivery)
        .catch((error: unknown) => logError("recording a webhook delivery failed", error, { delivery_id: delivery.id }))
        .finally(() => {
          inFlight.delete(sending);
          wake?.();
        });
      inFlight.add(sending);
    }
    return due.length;
  };

  /** Until `ms` pass, a slot frees up or the worker stops. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        stopping.signal.removeEventListener("abort", done);
        resolve();
      }
      wake = done;
      stopping.signal.addEventListener("abort", done, { once: true });
    });

  const run = async () => {
    let failing = false;
    while (!stopping.signal.aborted) {
      let started = 0;
      try {
        started = await fill();
        if (failing) logger.info("claiming webhook deliveries works again");
        failing = false;
      } catch (error) {
        // The database is away for a while: every poll tries again, and the outage is logged once.
        if (!failing) logError("claiming webhook deliveries failed; trying again every poll", error);
        failing = true;
      }
      // A full batch may mean more is due: claim again as soon as half the slots are free, so claims
      // come in batches (one statement for several attempts) rather than one per finished attempt.
      if (started === 0) await pause(pollMs);
      while (!stopping.signal.aborted && concurrency - inFlight.size < Math.ceil(concurrency / 2)) await pause(pollMs);
    }
  };

  return {
    start() {
      loop ??= run();
    },
    async runDue() {
      let sent = 0;
      for (;;) {
        const started = await fill();
        sent += started;
        if (inFlight.size === 0 && started === 0) return sent;
        if (inFlight.size > 0) await Promise.race(inFlight);
      }
    },
    async stop() {
      stopping.abort();
      await loop;
      await Promise.all(inFlight);
    },
  };
}
