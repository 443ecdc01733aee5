import type { FieldError, NestedProblem } from "./problem-schema";
import { type ProblemType, problemTypeUri } from "./problem-types";

export type { FieldError };

/**
 * The only error type domain code throws on purpose. The pipeline turns it into
 * application/problem+json; anything else becomes an opaque 500. `type` names the
 * failure's cause (CONTRACT §11: distinct causes, distinct problem types).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
    readonly type: ProblemType = defaultType(status),
  ) {
    super(detail);
  }

  /** The problem+json members of this error, as an error answer or a bulk item's `problem` carries them. */
  toProblem(): NestedProblem {
    return {
      type: problemTypeUri(this.type),
      title: this.title,
      status: this.status,
      detail: this.detail,
      ...(this.errors?.length ? { errors: this.errors } : {}),
    };
  }
}

const DEFAULT_TYPES: Record<number, ProblemType> = {
  400: "bad-request",
  401: "unauthorized",
  403: "forbidden",
  404: "not-found",
  405: "method-not-allowed",
  409: "conflict",
  413: "payload-too-large",
  415: "unsupported-media-type",
  422: "validation-failed",
  429: "rate-limited",
  500: "internal-error",
  502: "bad-gateway",
  503: "database-unavailable",
  504: "upstream-timeout",
};

function defaultType(status: number): ProblemType {
  return DEFAULT_TYPES[status] ?? "internal-error";
}

export const badRequest = (detail: string, type: ProblemType = "bad-request") =>
  new ApiError(400, "Bad Request", detail, undefined, undefined, type);
export const unauthorized = (detail: string) =>
  new ApiError(401, "Unauthorized", detail, undefined, { "WWW-Authenticate": 'Bearer realm="ext-svc"' });
export const forbidden = (detail: string, type: ProblemType = "forbidden") =>
  new ApiError(403, "Forbidden", detail, undefined, undefined, type);
export const notFound = (detail: string) => new ApiError(404, "Not Found", detail);
export const methodNotAllowed = (allowed: string[]) =>
  new ApiError(405, "Method Not Allowed", `This path supports ${allowed.join(", ")}.`, undefined, {
    Allow: allowed.join(", "),
  });
export const conflict = (detail: string, errors?: FieldError[], type: ProblemType = "conflict") =>
  new ApiError(409, "Conflict", detail, errors, undefined, type);
export const payloadTooLarge = (limit: number) => new ApiError(413, "Payload Too Large", `The request body is larger than ${limit} bytes.`);
export const unsupportedMediaType = (type: string) =>
  new ApiError(415, "Unsupported Media Type", `Request bodies must be application/json, not ${type}.`);
export const unprocessable = (detail: string, errors?: FieldError[], type: ProblemType = "validation-failed") =>
  new ApiError(422, "Unprocessable Content", detail, errors, undefined, type);
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new ApiError(429, "Too Many Requests", detail, undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const badGateway = (detail: string, errors?: FieldError[], type: ProblemType = "bad-gateway") =>
  new ApiError(502, "Bad Gateway", detail, errors, undefined, type);
export const serviceUnavailable = (detail: string) => new ApiError(503, "Service Unavailable", detail, undefined, { "Retry-After": "5" });
export const gatewayTimeout = (detail: string) => new ApiError(504, "Gateway Timeout", detail);

/** A single-field validation failure. */
export const invalidField = (path: string, message: string, type: ProblemType = "validation-failed") =>
  unprocessable(`${path}: ${message}`, [{ path, message }], type);

export type { ProblemType };
