// Between the e2e server and Playwright: keeps every line the server prints in the file named
// by the first argument (scanned for credentials, server-log.ts) and passes on all but the
// request lines, which would bury the test output.
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import readline from "node:readline";

mkdirSync(path.dirname(process.argv[2]), { recursive: true });
const kept = createWriteStream(process.argv[2], { flags: "a" });
const QUIET = /^\{"level":"(trace|debug|info)"/;
readline.createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
  kept.write(`${line}\n`);
  if (!QUIET.test(line)) process.stdout.write(`${line}\n`);
});
