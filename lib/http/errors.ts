/** One field that failed validation; `path` starts at the body's root (`manifest.directives[1].name`). */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * The only error type domain code throws on purpose. The pipeline turns it into
 * application/problem+json; anything else becomes an opaque 500.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string) => new ApiError(400, "Bad Request", detail);
export const unauthorized = (detail: string) =>
  new ApiError(401, "Unauthorized", detail, undefined, { "WWW-Authenticate": 'Bearer realm="ext-svc"' });
export const forbidden = (detail: string) => new ApiError(403, "Forbidden", detail);
export const notFound = (detail: string) => new ApiError(404, "Not Found", detail);
export const methodNotAllowed = (allowed: string[]) =>
  new ApiError(405, "Method Not Allowed", `This path supports ${allowed.join(", ")}.`, undefined, {
    Allow: allowed.join(", "),
  });
export const conflict = (detail: string, errors?: FieldError[]) => new ApiError(409, "Conflict", detail, errors);
export const payloadTooLarge = (limit: number) =>
  new ApiError(413, "Payload Too Large", `The request body is larger than ${limit} bytes.`);
export const unsupportedMediaType = (type: string) =>
  new ApiError(415, "Unsupported Media Type", `Request bodies must be application/json, not ${type}.`);
export const unprocessable = (detail: string, errors?: FieldError[]) =>
  new ApiError(422, "Unprocessable Content", detail, errors);
export const badGateway = (detail: string, errors?: FieldError[]) => new ApiError(502, "Bad Gateway", detail, errors);
export const serviceUnavailable = (detail: string) =>
  new ApiError(503, "Service Unavailable", detail, undefined, { "Retry-After": "5" });
export const gatewayTimeout = (detail: string) => new ApiError(504, "Gateway Timeout", detail);

/** A single-field validation failure. */
export const invalidField = (path: string, message: string) =>
  unprocessable(`${path}: ${message}`, [{ path, message }]);
