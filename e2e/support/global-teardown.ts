import { rmSync } from "node:fs";
import { allLinesWithCredentials } from "./server-log";

/**
 * Once Playwright has stopped the servers: their whole logs hold no credential (server-log.ts),
 * and the run's temporary databases and logs are removed.
 */
export default function globalTeardown() {
  const dir = process.env.E2E_DATA_DIR ?? "";
  const leaks = allLinesWithCredentials(dir);
  if (dir.includes("bank-templates-e2e-")) rmSync(dir, { recursive: true, force: true });
  if (leaks.length > 0) throw new Error(`server log lines holding a credential:\n${leaks.join("\n")}`);
}
