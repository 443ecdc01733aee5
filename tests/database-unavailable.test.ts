import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "@/lib/http/problem";

// Which failures the API answers with 503 + Retry-After instead of 500 (CONTRACT §10).
describe("isDatabaseUnavailable", () => {
  const wrapped = (cause: unknown) => new Error("Failed query: select 1", { cause });

  it("knows connection codes and SQLSTATE class 08, also wrapped by drizzle", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("closed"), { code: "CONNECTION_CLOSED" }))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error("refused"), { code: "ECONNREFUSED" })))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error("lost"), { code: "08006" })))).toBe(true);
    const idle = Object.assign(new Error("terminating connection due to idle-in-transaction timeout"), { code: "25P03" });
    expect(isDatabaseUnavailable(wrapped(idle))).toBe(true);
  });

  it("leaves our own bugs and the server's refusals as they are", () => {
    const ours = new TypeError("Cannot read properties of undefined (reading 'length')");
    ours.stack = `${ours.message}\n    at presentSource (file:///app/lib/services/sources/sources.ts:20:5)`;
    expect(isDatabaseUnavailable(wrapped(ours))).toBe(false);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error("duplicate key"), { code: "23505" })))).toBe(false);
  });
});
