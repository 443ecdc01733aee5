import { rmSync } from "node:fs";
import { allLinesWithCredentials } from "./server-log";

/**
 * Once Playwright has stopped the server: its whole log holds no credential (server-log.ts),
 * and the run's temporary database and log are removed.
 */
export default function globalTeardown() {
  const leaks = allLinesWithCredentials();
  const dir = process.env.E2E_DATA_DIR;
  if (dir?.includes("bank-templates-e2e-")) rmSync(dir, { recursive: true, force: true });
  if (leaks.length > 0) throw new Error(`server log lines holding a credential:\n${leaks.join("\n")}`);
}
