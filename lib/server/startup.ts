import "server-only";
import { ConfigError } from "@/lib/platform/config";
import { logError } from "@/lib/platform/log";
import { getApp } from "./app";
import { reportReadinessToPrimary } from "./readiness";

/**
 * Starts the app before the first request; a configuration error stops the process with its
 * message. A worker process reports its readiness to its primary from then on.
 */
export async function startServer(): Promise<void> {
  reportReadinessToPrimary();
  try {
    await getApp();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    // The database may come up later: requests answer 503 and start-up is retried until then.
    logError("start-up failed", error);
  }
}
