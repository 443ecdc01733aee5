import "server-only";
import type { Database } from "@/db/client";
import { DomainError } from "@/lib/contracts/errors";
import { IdempotencyKey } from "@/lib/contracts/idempotency";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_METHODS, IDEMPOTENT_REPLAYED_HEADER } from "@/lib/contracts/idempotency-header";
import { logError } from "@/lib/platform/log";
import { type IdempotencyClaim, releaseClaim, type StoredAnswer, storeAnswer } from "@/lib/services/idempotency/keys";
import { apiHeaders } from "./problem-response";
import { responseText } from "./text-response";

/**
 * The request's Idempotency-Key (CONTRACT §18), or null when it sends none or is no write.
 * A malformed key: 400 `invalid-idempotency-key`, before the body is read.
 */
export function idempotencyKeyOf(request: Request): string | null {
  if (!IDEMPOTENT_METHODS.has(request.method)) return null;
  const value = request.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (value === null) return null;
  if (IdempotencyKey.safeParse(value).success) return value;
  const message = "must be 1-128 characters of A-Z, a-z, 0-9, '.', '_', ':' and '-'";
  throw new DomainError("invalid-idempotency-key", `The ${IDEMPOTENCY_KEY_HEADER} header ${message}.`, {
    errors: [{ path: IDEMPOTENCY_KEY_HEADER, message }],
  });
}

/** The headers of an answer that are part of it, stored and replayed with it (not the request id). */
const KEPT_HEADERS = ["content-type", "location", "allow", "retry-after", "www-authenticate", "etag"];

/**
 * After the request holding `claim` answered: every answer but a 5xx is stored, and answers the
 * key's later requests; after a 5xx the key is released (unless the write committed), so a retry
 * runs. A failure to store is logged: the key then stays taken (a retry answers 409), never freed
 * for a second write. `shownOnce` names the answer's fields that hold a secret shown once
 * (lib/contracts/shown-once.ts): they are stored, and so replayed, as null (CONTRACT §19).
 */
export async function settleClaim(db: Database, claim: IdempotencyClaim, response: Response, shownOnce: readonly string[]): Promise<void> {
  try {
    const streamed = response.headers.get("content-type")?.includes("ndjson");
    if (response.status >= 500 || streamed) return await releaseClaim(db, claim);
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const text = response.status === 204 ? null : (responseText(response) ?? (await response.clone().text()));
    const body = text !== null && response.ok ? withoutSecrets(text, shownOnce) : text;
    await storeAnswer(db, claim, { status: response.status, headers, body });
  } catch (error) {
    logError("settling an idempotency key failed", error);
  } finally {
    claim.stopRefreshing();
  }
}

/** A successful answer's JSON text with each of `fields` (secrets shown once) set to null; key order kept. */
function withoutSecrets(text: string, fields: readonly string[]): string {
  if (fields.length === 0) return text;
  const answer: unknown = JSON.parse(text);
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) return text;
  const cleared: Record<string, unknown> = { ...answer };
  for (const field of fields) if (Object.hasOwn(cleared, field)) cleared[field] = null;
  return JSON.stringify(cleared);
}

/** A stored answer, sent again: its status, headers and body, with this request's own X-Request-Id. */
export function replayedAnswer(answer: StoredAnswer, requestId: string): Response {
  return new Response(answer.body, {
    status: answer.status,
    headers: { ...answer.headers, ...apiHeaders(requestId), [IDEMPOTENT_REPLAYED_HEADER]: "true" },
  });
}
