import { PROBLEM_TYPE_PREFIX } from "./problem-type-prefix";

/**
 * Every problem `type` the API answers with, one per failure cause (CONTRACT §11), as
 * `urn:bank-templates:problem:<name>`. The OpenAPI document lists them; clients may branch
 * on them. Names are stable: add new ones, never rename.
 */
export const PROBLEM_TYPES = {
  "bad-request": "The request cannot be carried out as asked (for example updating a template that has no source).",
  "malformed-json": "The body is not valid JSON.",
  "body-not-object": "The body is JSON but not an object.",
  "body-too-deep": "The body nests more than 64 levels deep.",
  "invalid-path-encoding": "The URL path has invalid percent-encoding.",
  unauthorized: "Missing, unknown, revoked or inactive credentials.",
  forbidden: "Authenticated, but not allowed.",
  "cross-site-session": "A session cookie came with a request that did not come from the console.",
  "not-found": "No such resource, or not the caller's.",
  "method-not-allowed": "The path does not have this method.",
  conflict: "The request conflicts with the current state.",
  "id-taken": "The id or name is taken.",
  "last-admin": "The change would leave the server without an active admin.",
  "local-edits": "The template has local edits; update with force=true to replace them.",
  "source-gone": "The template's source has been removed.",
  "template-gone": "The template is no longer in its source's catalog.",
  "not-from-source": "The template was made by hand, not installed from a source, so it has no upstream.",
  "payload-too-large": "The body is larger than 1 MiB.",
  "unsupported-media-type": "The body is not JSON.",
  "validation-failed": "A well-formed request failed validation; `errors` lists each field.",
  "invalid-characters": "A string contains U+0000 or an unpaired UTF-16 surrogate; `errors` names where.",
  "wrong-password": "The current password is wrong.",
  "rate-limited": "Too many failed attempts; retry after the `Retry-After` seconds.",
  "internal-error": "A failure on the server's side.",
  "client-gone": "The client went away before the work finished (499; nobody reads this answer).",
  "bad-gateway": "An upstream server (a marketplace or Hindsight) answered badly or could not be reached.",
  "invalid-upstream-manifest": "The marketplace's manifest for the template is invalid; `errors` lists each problem.",
  "unusable-upstream-content":
    "An upstream answer (a marketplace's catalog, catalog entry or manifest, or Hindsight's) holds U+0000 or an unpaired UTF-16 surrogate, or nests more than 64 levels; `errors` names where.",
  "database-unavailable": "The database cannot be reached right now; retry after `Retry-After` seconds.",
  "upstream-timeout": "An upstream server did not answer in time.",
} as const;

export type ProblemType = keyof typeof PROBLEM_TYPES;

export const problemTypeUri = (type: ProblemType) => `${PROBLEM_TYPE_PREFIX}${type}`;
