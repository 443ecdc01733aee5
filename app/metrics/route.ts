// GET /metrics – Prometheus text format; behind Authorization: Bearer <METRICS_TOKEN> when that is set
import { createHash, timingSafeEqual } from "node:crypto";
import { apiHeaders } from "@/lib/http/problem-response";
import { requestIdFor } from "@/lib/http/request-id";
import { loadConfig } from "@/lib/platform/config";
import { metrics } from "@/lib/platform/metrics";

export const dynamic = "force-dynamic";

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const digest = (text: string) => createHash("sha256").update(text).digest();

/** Equal digests take the same time to compare whatever the strings' lengths and contents. */
const sameToken = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));

export async function GET(request: Request): Promise<Response> {
  // Read from the environment, not the app: a scrape must work while the database is down.
  const { metricsToken } = loadConfig();
  const headers = apiHeaders(requestIdFor(request.headers));
  if (metricsToken !== null) {
    const given = BEARER.exec(request.headers.get("authorization") ?? "")?.[1];
    if (given === undefined || !sameToken(given, metricsToken)) {
      return new Response("Unauthorized\n", {
        status: 401,
        headers: { ...headers, "www-authenticate": 'Bearer realm="metrics"', "content-type": "text/plain" },
      });
    }
  }
  return new Response(await metrics.registry.metrics(), {
    headers: { ...headers, "content-type": metrics.registry.contentType },
  });
}
