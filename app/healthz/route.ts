// GET /healthz – 200 while the process runs
import { apiHeaders } from "@/lib/http/problem-response";
import { requestIdFor } from "@/lib/http/request-id";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return Response.json({ status: "ok" }, { headers: apiHeaders(requestIdFor(request.headers)) });
}
