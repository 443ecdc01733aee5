import { rmSync } from "node:fs";

/** Removes the run's temporary database (Playwright has stopped the server by now). */
export default function globalTeardown() {
  const dir = process.env.E2E_DATA_DIR;
  if (dir && dir.includes("bank-templates-e2e-")) rmSync(dir, { recursive: true, force: true });
}
