// GET /readyz – 200 while the database answers, else 503
import { apiHeaders } from "@/lib/http/problem-response";
import { requestIdFor } from "@/lib/http/request-id";
import { checkReady } from "@/lib/server/readiness";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const ready = await checkReady();
  const headers = apiHeaders(requestIdFor(request.headers));
  return Response.json(ready.ok ? { status: "ready" } : { status: "unavailable", reason: ready.reason }, {
    status: ready.ok ? 200 : 503,
    headers: ready.ok ? headers : { ...headers, "Retry-After": "5" },
  });
}
