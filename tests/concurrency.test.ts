import { describe, expect, it } from "vitest";
import { mapWithConcurrency } from "@/lib/shared/concurrency";
import { deferred } from "./support/deferred";

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Maps `count` calls that each wait for their gate, `limit` at a time; `started` lists the indexes called. */
function gatedRun(count: number, limit: number, options?: Parameters<typeof mapWithConcurrency>[3]) {
  const gates = Array.from({ length: count }, () => deferred<number>());
  const started: number[] = [];
  const run = mapWithConcurrency(
    gates,
    limit,
    (gate, index) => {
      started.push(index);
      return gate.promise;
    },
    options,
  );
  return { gates, started, run };
}

describe("mapWithConcurrency", () => {
  it("answers in the order of the items, whatever order the calls end in", async () => {
    const delays = [30, 5, 20, 0, 10];
    const results = await mapWithConcurrency(delays, 3, async (ms, index) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return `${index}:${ms}`;
    });
    expect(results).toEqual(["0:30", "1:5", "2:20", "3:0", "4:10"]);
    expect(await mapWithConcurrency([], 4, async () => 1)).toEqual([]);
  });

  it("never runs more than `limit` calls at once, and starts them in order", async () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await mapWithConcurrency(items, 4, async (item) => {
      started.push(item);
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, (item * 7) % 5));
      running--;
    });
    expect(most).toBe(4);
    expect(started).toEqual(items);

    // A limit above the number of items starts them all at once.
    const { gates, started: all, run } = gatedRun(2, 10);
    await settle();
    expect(all).toEqual([0, 1]);
    for (const [index, gate] of gates.entries()) gate.resolve(index);
    await expect(run).resolves.toEqual([0, 1]);
  });

  it("with stopOnError, starts no new call after one failed and rejects with that failure at once", async () => {
    const { gates, started, run } = gatedRun(6, 2, { stopOnError: true });
    await settle();
    expect(started).toEqual([0, 1]);
    const failure = new Error("item 0");
    gates[0]!.reject(failure);
    // Item 1 is still running: the map does not wait for it.
    await expect(run).rejects.toBe(failure);
    gates[1]!.resolve(1);
    await settle();
    expect(started).toEqual([0, 1]);
  });

  it("without stopOnError, rejects with the first failure but lets the other workers go on", async () => {
    const started: number[] = [];
    const failure = new Error("item 0");
    const run = mapWithConcurrency([0, 1, 2, 3], 2, async (item) => {
      started.push(item);
      await settle();
      if (item === 0) throw failure;
    });
    await expect(run).rejects.toBe(failure);
    await settle();
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it("starts no new call once the signal fired, and rejects with its reason", async () => {
    const controller = new AbortController();
    const { gates, started, run } = gatedRun(5, 2, { signal: controller.signal });
    await settle();
    const reason = new Error("gone");
    controller.abort(reason);
    gates[0]!.resolve(0);
    gates[1]!.resolve(1);
    await expect(run).rejects.toBe(reason);
    expect(started).toEqual([0, 1]);

    // Aborted before the start: no call at all.
    const calls: number[] = [];
    await expect(mapWithConcurrency([1, 2], 2, async (item) => calls.push(item), { signal: controller.signal })).rejects.toBe(reason);
    expect(calls).toEqual([]);
  });
});
