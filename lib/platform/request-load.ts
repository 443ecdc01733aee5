import "server-only";
import { performance } from "node:perf_hooks";

/**
 * When this process last began answering an API request: what background work (the webhook
 * delivery worker) yields to. A time rather than a count, so a request that ends in an unforeseen
 * way can never leave the process looking busy. Route bundles and instrumentation are separate
 * module graphs in one process, so it lives on globalThis, as the metrics do.
 */
const SLOT = Symbol.for("bank-template-console.last-request");
const slots = globalThis as Record<symbol, { at: number } | undefined>;
slots[SLOT] ??= { at: Number.NEGATIVE_INFINITY };
const last = slots[SLOT];

/** How recent the last request must be for the process to count as busy answering requests. */
const BUSY_WITHIN_MS = 100;

export function requestStarted(): void {
  last.at = performance.now();
}

/** Whether this process began answering an API request within the last 100 ms. */
export const answeringRequests = (): boolean => performance.now() - last.at < BUSY_WITHIN_MS;
