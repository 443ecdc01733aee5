// GET /readyz – 200 while the database answers, else 503
import { checkReady } from "@/lib/server/readiness";

export const dynamic = "force-dynamic";

export async function GET() {
  const ready = await checkReady();
  return Response.json(ready.ok ? { status: "ready" } : { status: "unavailable", reason: ready.reason }, {
    status: ready.ok ? 200 : 503,
    headers: ready.ok ? {} : { "Retry-After": "5" },
  });
}
