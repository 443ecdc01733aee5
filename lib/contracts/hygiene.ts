import { jsonFlaws, jsonTextNestsDeeperThan, MAX_JSON_DEPTH, tooDeep, UNSTORABLE } from "@/lib/contracts/json-hygiene";
import { hasValidPathEncoding } from "@/lib/contracts/path-encoding";
import { badRequest, unprocessable } from "./errors";

/** Refuses a body nested deeper than MAX_JSON_DEPTH with 400, before it is parsed (CONTRACT §10). */
export function assertJsonDepth(text: string): void {
  if (jsonTextNestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw badRequest(`The request body ${tooDeep(MAX_JSON_DEPTH)} deep.`, "body-too-deep");
  }
}

/** 422 naming every unstorable string of a request part (`what`: "request body", "query", "path"). */
export function assertStorable(value: unknown, what: string): void {
  const errors = jsonFlaws(value);
  if (errors.length) {
    throw unprocessable(`The ${what} has a string that ${UNSTORABLE}: ${errors[0]!.path}.`, errors, "invalid-characters");
  }
}

/** 400 for a URL path whose percent-encoding is invalid (`/ext/svc/me/templates/%ff`). */
export function assertPathEncoding(pathname: string, markedInvalid = false): void {
  if (markedInvalid || !hasValidPathEncoding(pathname)) {
    throw badRequest("The URL path has invalid percent-encoding.", "invalid-path-encoding");
  }
}
