import { ApiError, serviceUnavailable } from "./errors";
import { logError } from "@/lib/server/log";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

function slug(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

export function problemResponse(error: ApiError): Response {
  const body = {
    type: `urn:bank-templates:problem:${slug(error.title)}`,
    title: error.title,
    status: error.status,
    detail: error.detail,
    ...(error.errors?.length ? { errors: error.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, "cache-control": "no-store", ...error.headers },
  });
}

// Connection-level failures of postgres.js and Node sockets, and SQLSTATE classes 08/57P.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH",
  "CONNECT_TIMEOUT", "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED",
  "57P01", "57P02", "57P03",
]);

/** True when the error (or one it wraps) says the database could not be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true;
  }
  return false;
}

/** The one place any thrown value becomes a response. */
export function errorToResponse(error: unknown, where: { method: string; path: string }): Response {
  if (error instanceof ApiError) return problemResponse(error);
  if (isDatabaseUnavailable(error)) {
    return problemResponse(serviceUnavailable("The database is not reachable right now; try again shortly."));
  }
  logError("unhandled error", error, where);
  return problemResponse(new ApiError(500, "Internal Server Error", "An unexpected error occurred on the server."));
}
