import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { linesWithCredentials } from "../../tests/support/credentials";
import { E2E_ADMIN_PASSWORD, E2E_ADMIN_TOKEN, E2E_SERVER_DIR, E2E_WORKERS, serverDataDir } from "./env";

// Issue 12: "no token appears in any log line of the whole test run". The e2e server logs at
// info (a line per request, as in production) through log-tap.mjs into this file; each test's
// new lines are scanned after it (fixtures.ts), and the whole file once the server stopped
// (global-teardown.ts), so a leak names the test that caused it.

const serverLog = (dir: string) => path.join(dir, "server.log");
const SECRETS = [E2E_ADMIN_TOKEN, E2E_ADMIN_PASSWORD];

/** The complete lines of the server log `file` from byte `from` on, and where they end; reads only those bytes. */
function linesFrom(file: string, from: number): { lines: string[]; end: number } {
  if (!existsSync(file)) return { lines: [], end: from };
  const fd = openSync(file, "r");
  try {
    const bytes = Buffer.alloc(Math.max(0, fstatSync(fd).size - from));
    const read = readSync(fd, bytes, 0, bytes.length, from);
    // A line still being written is read with the next test.
    const complete = bytes.subarray(0, bytes.subarray(0, read).lastIndexOf(0x0a) + 1);
    return { lines: complete.toString("utf8").split("\n").filter(Boolean), end: from + complete.length };
  } finally {
    closeSync(fd);
  }
}

let scannedUpTo = 0;

/** Lines this worker's server wrote since the last call that hold a credential. */
export function newLinesWithCredentials(): string[] {
  const { lines, end } = linesFrom(serverLog(E2E_SERVER_DIR), scannedUpTo);
  scannedUpTo = end;
  return linesWithCredentials(lines, SECRETS);
}

/** Every line of the run's server logs that holds a credential. */
export function allLinesWithCredentials(runDir: string): string[] {
  const logs = Array.from({ length: E2E_WORKERS }, (_, index) => serverLog(serverDataDir(runDir, index)));
  return logs.flatMap((file) => linesWithCredentials(linesFrom(file, 0).lines, SECRETS));
}
