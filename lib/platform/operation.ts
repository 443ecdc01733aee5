import { DomainError } from "@/lib/contracts/errors";

/** What one marketplace operation (a browse, an install, a check) brings to every fetch it makes. */
export interface OperationOptions {
  /** The request's signal: once it fires (the client went away) no new fetch starts and running ones stop. */
  signal?: AbortSignal;
  /**
   * When the operation began (ms since the epoch; default: when the load began). A revalidating
   * fetch accepts an upstream answer received after this moment, so operations that run at the
   * same time share one conditional request, and a later operation never reuses an older answer.
   */
  since?: number;
  /**
   * Called once the operation has the source's catalog and found it well formed (fetched,
   * revalidated, or a fresh cached copy), with when the marketplace last answered for it.
   * A failure before this call is the catalog's; after it, an entry's or the client's.
   */
  onCatalogLoaded?: (fetchedAt: Date) => void;
}

/**
 * The client of the request went away, so nobody will read the answer. 499 as nginx names it;
 * it never reaches a client, and being a DomainError it is not logged as a server fault.
 */
export const clientGone = () => new DomainError("client-gone", "The client went away before the marketplace work finished.");

export function throwIfGone(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw clientGone();
}

/** Waits `ms`, or rejects with clientGone as soon as `signal` fires. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(clientGone());
    const onAbort = () => {
      clearTimeout(timer);
      reject(clientGone());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
