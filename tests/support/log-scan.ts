import { afterAll, expect } from "vitest";
import { logger } from "@/lib/platform/log";
import { linesWithCredentials } from "./credentials";
import { ADMIN_TOKEN } from "./tokens";

// Issue 12: "no token appears in any log line of the whole test run". Every test file runs with
// the logger at info (one line per request, as in production), and every line it writes is
// scanned for credentials when the file ends; issue 18: and for its size, at most 16 KB. Info lines are kept from the console (the suite
// would drown in them); warnings and errors are still printed.

const scanned: string[] = [];

/** Every line the logger wrote since this test file began, for a test that asserts on them. */
export const loggedLines = (): readonly string[] => scanned;

if (!process.env.LOG_LEVEL) logger.level = "info";
const write = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
// A plain assignment, not vi.spyOn: a test restoring its own mocks must not remove this.
process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
  const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
  if (!text.startsWith('{"level":')) return write(chunk, ...rest);
  const lines = text.trim().split("\n");
  scanned.push(...lines);
  const quiet = lines.every((line) => /^\{"level":"(trace|debug|info)"/.test(line));
  return quiet ? true : write(chunk, ...rest);
}) as typeof process.stderr.write;

const MAX_LINE_BYTES = 16 * 1024;

afterAll(() => {
  const leaks = linesWithCredentials(scanned, [ADMIN_TOKEN]);
  expect(leaks, "log lines holding a credential").toEqual([]);
  // Counted with the newline each line ends with; reported by their start, not whole.
  const oversized = scanned.filter((line) => Buffer.byteLength(line) + 1 > MAX_LINE_BYTES).map((line) => line.slice(0, 200));
  expect(oversized, "log lines larger than 16 KB").toEqual([]);
});
