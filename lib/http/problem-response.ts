import { type DomainError, nestedProblem } from "@/lib/contracts/errors";
import type { Problem } from "@/lib/contracts/problem-schema";
import { PROBLEM_CONTENT_TYPE } from "@/lib/contracts/problem-type-prefix";
import { PROBLEM_STATUS } from "@/lib/contracts/problem-types";
import { REQUEST_ID_HEADER } from "./request-id";
import { textResponse } from "./text-response";

// Apart from lib/http/problem.ts (which logs and walks causes) so that the proxy, which answers
// some requests before the API pipeline runs, makes its problems with this same function.

/** Headers every API answer carries, success or problem. */
export function apiHeaders(requestId: string): Record<string, string> {
  return { "cache-control": "no-store", "x-content-type-options": "nosniff", [REQUEST_ID_HEADER]: requestId };
}

/** The HTTP headers a failure of this kind adds to its answer. */
function problemHeaders(error: DomainError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (PROBLEM_STATUS[error.code] === 401) headers["WWW-Authenticate"] = 'Bearer realm="ext-svc"';
  if (error.retryAfterSeconds !== undefined) headers["Retry-After"] = String(error.retryAfterSeconds);
  if (error.allow) headers.Allow = error.allow.join(", ");
  if (error.entityTag) headers.ETag = error.entityTag;
  return headers;
}

/** The one mapping of a domain error to an HTTP answer: its code's status, problem+json. */
export function problemResponse(error: DomainError, requestId: string): Response {
  const body: Problem = { ...nestedProblem(error), request_id: requestId };
  return textResponse(JSON.stringify(body), {
    status: PROBLEM_STATUS[error.code],
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...apiHeaders(requestId), ...problemHeaders(error) },
  });
}
