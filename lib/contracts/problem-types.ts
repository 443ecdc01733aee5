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
  "malformed-request":
    "The request is not well-formed HTTP/1.1 (its request line, a header or the chunked body); the server answers it before any route.",
  "headers-too-large": "The request's headers, cookies included, are larger than 16 KiB.",
  "request-timeout": "The request did not arrive in time: its headers within 10 seconds, all of it within 30.",
  unauthorized: "Missing, unknown, revoked or inactive credentials.",
  "key-expired": "The API key has expired; create a new one.",
  "key-read-only": "The API key is read-only: it may only GET.",
  forbidden: "Authenticated, but not allowed.",
  "cross-site-session": "A session cookie came with a request that did not come from the console.",
  "not-found": "No such resource, or not the caller's.",
  "method-not-allowed": "The path does not have this method.",
  conflict: "The request conflicts with the current state.",
  "id-taken": "The id or name is taken.",
  "limit-reached": "The caller already holds as many of these as it may (CONTRACT §18); delete one first.",
  "last-admin": "The change would leave the server without an active admin.",
  "local-edits": "The template has local edits; update with force=true to replace them.",
  "source-gone": "The template's source has been removed.",
  "template-gone": "The template is no longer in its source's catalog.",
  "restore-unavailable":
    "The bank's history does not keep its content as it was right after that entry (recorded before contents were kept); entries since then can be restored.",
  "stale-policy-document":
    "The policy document a history entry holds no longer validates as a policy document (it was stored under an earlier schema); `errors` lists each problem.",
  "not-from-source": "The template was made by hand, not installed from a source, so it has no upstream.",
  "merge-conflict":
    "A merge (a template update with merge=true, or a bank apply or rollout with merge) found paths changed both here and upstream to different values; `conflicts` lists each, and nothing was written.",
  "merge-base-missing":
    "A merge has no base: for a template update, the version last installed or updated from the source is no longer kept (update with force=true instead); for a bank, its last apply kept no content (apply without merge instead).",
  "merge-invalid":
    "A merge would combine the two sides' changes into an invalid manifest (`errors` lists each problem), or a bank's resolutions would remove an entry, which an apply cannot.",
  "merge-resolution-unknown":
    "A resolution of an update with merge=true names a path that is not one of its conflicts (the template or its source may have changed since they were read); `errors` names each, and nothing was written.",
  "precondition-failed":
    "The `If-Match` (or `If-None-Match: *`) of a write does not hold: the resource changed since that version was read (or exists, or does not); `ETag` names the current version, and nothing was written.",
  "invalid-idempotency-key": "The Idempotency-Key header is not 1-128 characters of A-Z, a-z, 0-9, `.`, `_`, `:` and `-`.",
  "idempotency-key-reused": "The Idempotency-Key was used before by this caller for another method, path or body.",
  "idempotency-key-in-use":
    "The first request with this Idempotency-Key is still running (or its process stopped after writing, before answering); retry later.",
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

/**
 * The HTTP status each problem type is answered with: part of the contract (clients and nested
 * problems in bulk and catalog answers carry it), applied to responses by the HTTP edge alone.
 */
export const PROBLEM_STATUS: Record<ProblemType, number> = {
  "bad-request": 400,
  "malformed-json": 400,
  "body-not-object": 400,
  "body-too-deep": 400,
  "invalid-path-encoding": 400,
  "malformed-request": 400,
  "headers-too-large": 431,
  "request-timeout": 408,
  "not-from-source": 400,
  unauthorized: 401,
  "key-expired": 401,
  forbidden: 403,
  "key-read-only": 403,
  "cross-site-session": 403,
  "not-found": 404,
  "method-not-allowed": 405,
  conflict: 409,
  "id-taken": 409,
  "limit-reached": 409,
  "last-admin": 409,
  "local-edits": 409,
  "source-gone": 409,
  "template-gone": 409,
  "restore-unavailable": 409,
  "stale-policy-document": 409,
  "merge-conflict": 409,
  "merge-base-missing": 409,
  "merge-invalid": 409,
  "merge-resolution-unknown": 422,
  "precondition-failed": 412,
  "invalid-idempotency-key": 400,
  "idempotency-key-reused": 422,
  "idempotency-key-in-use": 409,
  "payload-too-large": 413,
  "unsupported-media-type": 415,
  "validation-failed": 422,
  "invalid-characters": 422,
  "wrong-password": 422,
  "rate-limited": 429,
  "client-gone": 499,
  "internal-error": 500,
  "bad-gateway": 502,
  "invalid-upstream-manifest": 502,
  "unusable-upstream-content": 502,
  "database-unavailable": 503,
  "upstream-timeout": 504,
};

const STATUS_TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  499: "Client Closed Request",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** The `title` of a problem of this type: its status's reason phrase. */
export const problemTitle = (type: ProblemType) => STATUS_TITLES[PROBLEM_STATUS[type]]!;
