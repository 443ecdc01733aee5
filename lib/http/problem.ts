import "server-only";
import { DomainError, internalError, serviceUnavailable } from "@/lib/contracts/errors";
import { logError } from "@/lib/platform/log";
import { causeCodes } from "@/lib/shared/cause-chain";
import { problemResponse } from "./problem-response";

// Connection-level failures of postgres.js and Node sockets, SQLSTATE classes 08/57P, the
// server ending a session for idling (25P03 in a transaction, 57P05 outside one: after a
// partition the next query on that socket hears it), and our own bound on waiting for the
// database (db/client.ts).
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "DATABASE_TIMEOUT",
  "57P01",
  "57P02",
  "57P03",
  "57P05",
  "57014",
  "25P03",
]);

/** True when the error (or one it wraps) says the database could not be reached in time. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return causeCodes(error).some((code) => UNAVAILABLE_CODES.has(code) || code.startsWith("08"));
}

/** The one place any thrown value becomes a response. */
export function errorToResponse(error: unknown, where: { method: string; path: string; requestId: string }): Response {
  if (error instanceof DomainError) return problemResponse(error, where.requestId);
  if (isDatabaseUnavailable(error)) {
    return problemResponse(serviceUnavailable("The database is not reachable right now; try again shortly."), where.requestId);
  }
  logError("unhandled error", error, where);
  return problemResponse(internalError(), where.requestId);
}
