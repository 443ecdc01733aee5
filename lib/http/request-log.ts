import "server-only";
import { logRequest } from "@/lib/platform/log";
import { metrics } from "@/lib/platform/metrics";
import type { AuthenticatedActor } from "@/lib/services/context";

/**
 * One API request being answered, counted in flight from the start; `finish`, called exactly
 * once when the response is known, writes its log line and metrics.
 */
export interface RequestObservation {
  /**
   * When the request arrived, by the wall clock (ms since the epoch), as the database dates what
   * it records: the start of the call it makes (ServiceContext.startedAt).
   */
  readonly startedAt: number;
  /** Set by the pipeline once the caller is authenticated. */
  actor?: AuthenticatedActor;
  finish(response: Response): Response;
}

/**
 * Starts observing a request to `route`, the endpoint's path template (never the raw path:
 * ids in it would make every template its own metric series and put user data in logs).
 * One log line (lib/platform/log.ts) and the request metrics per request.
 */
export function observeRequest(method: string, route: string, requestId: string): RequestObservation {
  const started = performance.now();
  const inFlight = metrics.httpRequestsInFlight.labels({ route, method });
  inFlight.inc();
  const observation: RequestObservation = {
    startedAt: Date.now(),
    finish(response) {
      inFlight.dec();
      const status = response.status;
      const seconds = logRequest({ requestId, method, route, status, started, actor: observation.actor });
      metrics.httpRequests.inc({ route, method, status: String(status) });
      metrics.httpRequestDuration.observe({ route, method }, seconds);
      return response;
    },
  };
  return observation;
}
