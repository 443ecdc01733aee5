// A worker pool for promises, with no dependency: the server, the CLI and the browser share it.

export interface ConcurrencyOptions {
  /** Once it fires no new call starts, and the map rejects with its reason. */
  signal?: AbortSignal;
  /** After a call fails, start no new call (the map rejects with that failure either way). */
  stopOnError?: boolean;
}

/**
 * Like Promise.all over `items.map(fn)`, with at most `limit` calls (a positive integer) running
 * at once, started in the order of `items`; the results come back in that order. The first
 * failure rejects the map at once; calls already running go on, unawaited.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  { signal, stopOnError = false }: ConcurrencyOptions = {},
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!(stopOnError && failed) && next < items.length) {
      signal?.throwIfAborted();
      const index = next++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
