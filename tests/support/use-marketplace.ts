import { afterAll, beforeAll } from "vitest";
import { type Marketplace, startMarketplace } from "./marketplace-server";

// Apart from the marketplace server itself, so programs outside vitest (npm run bench) can start one.

/**
 * A marketplace for the whole test file, started after `t`'s app (its host allowed there) and
 * closed after the file's tests. Call it beside `useTestApp()`; the answer is the marketplace
 * from the file's first hook on.
 */
export function useMarketplace(t: { app: { config: { marketplace: { allowedHosts: string[] } } } }): Marketplace {
  let started: Marketplace | null = null;
  beforeAll(async () => {
    started = await startMarketplace();
    t.app.config.marketplace.allowedHosts.push(started.host);
  });
  afterAll(() => started?.close());
  return new Proxy({} as Marketplace, {
    get(_, property) {
      if (!started) throw new Error("the marketplace starts in useMarketplace's beforeAll; read it from a hook or a test");
      const value = Reflect.get(started, property, started);
      return typeof value === "function" ? value.bind(started) : value;
    },
  });
}
