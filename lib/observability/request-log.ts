import type { Principal } from "@/lib/identity/principal";
import { logger } from "@/lib/server/log";
import { metrics } from "./metrics";

/** The route label of requests no route file names (their raw paths would be unbounded labels). */
export const UNMATCHED_ROUTE = "unmatched";

/** One API request being answered; `finish` writes its log line and metrics once the response is known. */
export interface RequestObservation {
  /** Set by the pipeline once the caller is authenticated. */
  principal?: Principal;
  finish(response: Response): Response;
}

/**
 * Starts observing a request to `route`, the endpoint's path template (never the raw path:
 * ids in it would make every template its own metric series and put user data in logs).
 * The line holds no body, query string, header or token.
 */
export function observeRequest(method: string, route: string, requestId: string): RequestObservation {
  const started = performance.now();
  const observation: RequestObservation = {
    finish(response) {
      const seconds = (performance.now() - started) / 1000;
      const status = response.status;
      metrics.httpRequests.inc({ route, method, status: String(status) });
      metrics.httpRequestDuration.observe({ route, method }, seconds);
      const principal = observation.principal;
      logger.info(
        {
          request_id: requestId,
          method,
          route,
          status,
          duration_ms: Math.round(seconds * 10_000) / 10,
          ...(principal ? { principal_id: principal.id, principal_type: principal.type } : {}),
        },
        "request",
      );
      return response;
    },
  };
  return observation;
}
