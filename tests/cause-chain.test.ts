import { describe, expect, it } from "vitest";
import { causeChain, causeCodes } from "@/lib/shared/cause-chain";

describe("causeChain", () => {
  it("walks an error and what it wraps, outermost first", () => {
    const socket = Object.assign(new Error("refused"), { code: "ECONNREFUSED" });
    const fetchFailed = new TypeError("fetch failed", { cause: socket });
    expect(causeChain(new Error("outer", { cause: fetchFailed }))).toEqual([expect.any(Error), fetchFailed, socket]);
    expect(causeCodes(new Error("outer", { cause: fetchFailed }))).toEqual(["ECONNREFUSED"]);
  });

  it("stops at its bound, also on a cycle", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(causeChain(a)).toHaveLength(8);
    expect(causeChain(a, 3)).toEqual([a, b, a]);
    expect(causeChain(undefined)).toEqual([]);
  });
});
