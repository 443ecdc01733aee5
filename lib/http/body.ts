import { badRequest, payloadTooLarge, unsupportedMediaType } from "@/lib/contracts/errors";
import { assertJsonDepth, assertStorable } from "@/lib/contracts/hygiene";
import { readCapped } from "@/lib/platform/outbound";

const MAX_BODY_BYTES = 1024 * 1024;

/** `application/json` and `+json` types with any parameters; no Content-Type counts as JSON too. */
function isJsonContentType(header: string | null): boolean {
  if (!header?.trim()) return true;
  const type = header.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/** Reads the body as bytes, stopping as soon as it passes the limit. */
async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw payloadTooLarge(limit);
  if (!request.body) return new Uint8Array();
  return readCapped(request.body, limit, () => payloadTooLarge(limit));
}

/**
 * The JSON object a request carries: 415 for a non-JSON type, 413 past the limit,
 * 400 for malformed JSON, anything but an object, or nesting deeper than 64 levels; 422 for
 * a string (or key) that PostgreSQL cannot store. An empty body reads as `{}`.
 */
export async function readJsonObject(request: Request, limit = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const contentType = request.headers.get("content-type");
  if (!isJsonContentType(contentType)) throw unsupportedMediaType(contentType!.split(";")[0]!.trim());
  const bytes = await readLimited(request, limit);
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  if (!text.trim()) return {};
  assertJsonDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest(`The request body is not valid JSON: ${(error as Error).message}.`, "malformed-json");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest("The request body must be a JSON object.", "body-not-object");
  }
  assertStorable(value, "request body");
  return value as Record<string, unknown>;
}
