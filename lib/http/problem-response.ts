import type { ApiError } from "./errors";
import type { Problem } from "./problem-schema";
import { REQUEST_ID_HEADER } from "./request-id";

// Apart from lib/http/problem.ts (which logs and walks causes) so that the proxy, which answers
// some requests before the API pipeline runs, makes its problems with this same function.

const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** Headers every API answer carries, success or problem. */
export function apiHeaders(requestId: string): Record<string, string> {
  return { "cache-control": "no-store", "x-content-type-options": "nosniff", [REQUEST_ID_HEADER]: requestId };
}

export function problemResponse(error: ApiError, requestId: string): Response {
  const body: Problem = { ...error.toProblem(), request_id: requestId };
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...apiHeaders(requestId), ...error.headers },
  });
}
