import { afterAll, beforeAll } from "vitest";
import type { Config } from "@/lib/platform/config";
import { type FakeHindsight, type FakeHindsightOptions, startFakeHindsight } from "./fake-hindsight";

// Apart from the fake itself, so programs outside vitest can start one.

/**
 * A strict fake Hindsight for the tests of the enclosing `describe` (or the whole file), the app of
 * `t` pointed at it (the remote bank store) from the first hook on, and given back its earlier
 * setting and the fake closed afterwards. Call it beside `useTestApp()`, before hooks that need
 * the remote store; the answer is the fake, read from a hook or a test.
 */
export function useFakeHindsight(
  t: { app: { config: Pick<Config, "hindsight"> } },
  { timeoutMs = 5000, ...options }: FakeHindsightOptions & { timeoutMs?: number } = {},
): FakeHindsight {
  let started: FakeHindsight | null = null;
  let before: Config["hindsight"] = null;
  beforeAll(async () => {
    started = await startFakeHindsight(options);
    before = t.app.config.hindsight;
    t.app.config.hindsight = { url: started.url, apiKey: options.apiKey ?? null, timeoutMs };
  });
  afterAll(async () => {
    t.app.config.hindsight = before;
    await started?.close();
  });
  return new Proxy({} as FakeHindsight, {
    get(_, property) {
      if (!started) throw new Error("the fake Hindsight starts in useFakeHindsight's beforeAll; read it from a hook or a test");
      const value = Reflect.get(started, property, started);
      return typeof value === "function" ? value.bind(started) : value;
    },
  });
}
