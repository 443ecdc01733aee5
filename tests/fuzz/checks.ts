import type { FuzzResponse } from "./dispatch";
import { MARKETPLACE_PATH, type Operation } from "./operations";

const PROBLEM_TYPE_PREFIX = "urn:bank-templates:problem:";

/** Why a response breaks the contract (CONTRACT §4, §10, §11); empty when it keeps it. */
export function contractViolations(operation: Operation | undefined, response: FuzzResponse, path?: string): string[] {
  const problems: string[] = [];
  const { status, headers, text } = response;

  if (status >= 500) {
    // 502/504 answer for an unreachable or misbehaving marketplace; the database is up, so nothing else.
    const fetchesMarketplace =
      operation?.marketplace || (path !== undefined && MARKETPLACE_PATH.test(new URL(path, "http://localhost").pathname));
    const upstreamAnswer = fetchesMarketplace && (status === 502 || status === 504);
    if (!upstreamAnswer) problems.push(`answered ${status}`);
  }
  if (!headers.get("x-request-id")) problems.push("no X-Request-Id header");

  if (status >= 400) {
    const contentType = headers.get("content-type") ?? "";
    if (!contentType.toLowerCase().startsWith("application/problem+json"))
      problems.push(`error with content-type ${JSON.stringify(contentType)}, not application/problem+json`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push(`error body is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
      return problems;
    }
    problems.push(...problemBodyViolations(body, status, headers.get("x-request-id")));
    if (status === 405 && !headers.get("allow")) problems.push("405 without an Allow header");
  } else if (status >= 200 && status < 300) {
    if (status === 204 && text !== "") problems.push("204 with a body");
    // NDJSON (an export): every line is JSON of its own.
    const ndjson = (headers.get("content-type") ?? "").toLowerCase().startsWith("application/x-ndjson");
    for (const part of ndjson ? text.split("\n").filter((line) => line !== "") : text !== "" ? [text] : []) {
      try {
        JSON.parse(part);
      } catch {
        problems.push(`${status} body is not ${ndjson ? "NDJSON" : "JSON"}: ${JSON.stringify(part.slice(0, 200))}`);
        break;
      }
    }
  }
  return problems;
}

function problemBodyViolations(body: unknown, status: number, requestIdHeader: string | null): string[] {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return ["problem body is not an object"];
  const problem = body as Record<string, unknown>;
  const out: string[] = [];
  if (typeof problem.type !== "string" || !problem.type.startsWith(PROBLEM_TYPE_PREFIX))
    out.push(`problem type ${JSON.stringify(problem.type)} does not start with ${PROBLEM_TYPE_PREFIX}`);
  if (typeof problem.title !== "string") out.push("problem without a string title");
  if (problem.status !== status) out.push(`problem status ${JSON.stringify(problem.status)} differs from HTTP ${status}`);
  if (typeof problem.detail !== "string") out.push("problem without a string detail");
  else if (/\n\s+at |node_modules|\.ts:\d+/.test(problem.detail)) out.push("problem detail carries a stack trace");
  if (typeof problem.request_id !== "string") out.push("problem without a string request_id");
  else if (requestIdHeader && problem.request_id !== requestIdHeader) out.push("problem request_id differs from the X-Request-Id header");
  if (problem.errors !== undefined) {
    const wellFormed =
      Array.isArray(problem.errors) &&
      problem.errors.every(
        (e) =>
          typeof e === "object" &&
          e !== null &&
          typeof (e as { path?: unknown }).path === "string" &&
          typeof (e as { message?: unknown }).message === "string",
      );
    if (!wellFormed) out.push("problem errors is not a list of {path, message}");
  }
  return out;
}
