import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { deleting, readUnlessDeleted } from "@/lib/client/query";
import { deferred } from "./support/deferred";

// A delete that waits for the server (lib/client/pending-saves.ts) and the refetch of what it
// deletes, when the server answers again, must not cross: the refetch landing after the delete
// would ask after something gone (a 404 on a page that only showed it). The reads wait for it.

describe("a read of what a write is deleting", () => {
  const key = ["ext-svc", "GET", "/ext/svc/admin/templates/{template_id}", { template_id: "t" }, {}] as const;

  async function setUp() {
    const queries = new QueryClient();
    queries.setQueryData(key, { id: "t", name: "shown" });
    const answer = deferred<string>();
    const write = deleting([key], () => answer.promise);
    let reads = 0;
    const read = readUnlessDeleted(queries, key, async () => {
      reads += 1;
      return { id: "t", name: "read" };
    });
    // Both under way: the read has not gone out beside the waiting delete.
    await Promise.resolve();
    return { answer, write, read, reads: () => reads };
  }

  it("waits for it and, once it is done, answers what was shown without asking the server", async () => {
    const { answer, write, read, reads } = await setUp();
    expect(reads()).toBe(0);
    answer.resolve("deleted");
    await expect(write).resolves.toBe("deleted");
    await expect(read).resolves.toEqual({ id: "t", name: "shown" });
    expect(reads()).toBe(0);
  });

  it("asks the server once the write failed, since the thing is still there", async () => {
    const { answer, write, read, reads } = await setUp();
    answer.reject(new Error("refused"));
    await expect(write).rejects.toThrow("refused");
    await expect(read).resolves.toEqual({ id: "t", name: "read" });
    expect(reads()).toBe(1);
  });

  it("reads at once when nothing is being deleted, or something else is", async () => {
    const queries = new QueryClient();
    const other = deferred<void>();
    void deleting([["ext-svc", "GET", "/other", {}, {}]], () => other.promise);
    await expect(readUnlessDeleted(queries, key, async () => "read")).resolves.toBe("read");
    other.resolve();
  });
});
