import type { FieldError, MergeConflict, NestedProblem } from "./problem-schema";
import { PROBLEM_STATUS, type ProblemType, problemTitle, problemTypeUri } from "./problem-types";

export type { FieldError };

interface DomainErrorOptions {
  /** Each field that failed, by path. */
  errors?: FieldError[];
  /** When trying again may succeed (a rate limit, an unreachable database). */
  retryAfterSeconds?: number;
  /** The methods a path does have (a refused method). */
  allow?: string[];
  /** The paths a merge could not decide (`merge-conflict`). */
  conflicts?: MergeConflict[];
  /** The resource's current entity tag (`precondition-failed`); absent when it does not exist. */
  entityTag?: string;
}

/**
 * The only error the services throw on purpose: a failure with a stable `code` (a problem type
 * of the OpenAPI document, CONTRACT §11: distinct causes, distinct codes) and words for people.
 * It knows nothing of HTTP: the edge (lib/http/problem.ts) answers it as problem+json with the
 * code's status; the CLI and the scheduler read the same codes. Anything else thrown is a fault.
 */
export class DomainError extends Error {
  readonly errors?: FieldError[];
  readonly retryAfterSeconds?: number;
  readonly allow?: string[];
  readonly conflicts?: MergeConflict[];
  readonly entityTag?: string;

  constructor(
    readonly code: ProblemType,
    readonly detail: string,
    options: DomainErrorOptions = {},
  ) {
    super(detail);
    this.name = "DomainError";
    this.errors = options.errors?.length ? options.errors : undefined;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.allow = options.allow;
    this.conflicts = options.conflicts;
    this.entityTag = options.entityTag;
  }

  /** The same failure in other words (what was redirected, say), everything else kept. */
  withDetail(detail: string): DomainError {
    return new DomainError(this.code, detail, this);
  }
}

/** A failure as a problem object: an error answer's members, or a bulk or catalog item's `problem`. */
export function nestedProblem(error: DomainError): NestedProblem {
  return {
    type: problemTypeUri(error.code),
    title: problemTitle(error.code),
    status: PROBLEM_STATUS[error.code],
    detail: error.detail,
    ...(error.errors ? { errors: error.errors } : {}),
    ...(error.conflicts ? { conflicts: error.conflicts } : {}),
  };
}

export const badRequest = (detail: string, code: ProblemType = "bad-request") => new DomainError(code, detail);
export const unauthorized = (detail: string, code: ProblemType = "unauthorized") => new DomainError(code, detail);
export const forbidden = (detail: string, code: ProblemType = "forbidden") => new DomainError(code, detail);
export const notFound = (detail: string) => new DomainError("not-found", detail);
export const methodNotAllowed = (allowed: string[]) =>
  new DomainError("method-not-allowed", `This path supports ${allowed.join(", ")}.`, { allow: allowed });
export const conflict = (detail: string, errors?: FieldError[], code: ProblemType = "conflict") =>
  new DomainError(code, detail, { errors });
export const preconditionFailed = (detail: string, entityTag: string | undefined) =>
  new DomainError("precondition-failed", detail, { entityTag });
export const limitReached = (detail: string) => new DomainError("limit-reached", detail);
export const payloadTooLarge = (limit: number) => new DomainError("payload-too-large", `The request body is larger than ${limit} bytes.`);
export const unsupportedMediaType = (type: string) =>
  new DomainError("unsupported-media-type", `Request bodies must be application/json, not ${type}.`);
export const unprocessable = (detail: string, errors?: FieldError[], code: ProblemType = "validation-failed") =>
  new DomainError(code, detail, { errors });
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new DomainError("rate-limited", detail, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });
export const badGateway = (detail: string, errors?: FieldError[], code: ProblemType = "bad-gateway") =>
  new DomainError(code, detail, { errors });
export const serviceUnavailable = (detail: string) => new DomainError("database-unavailable", detail, { retryAfterSeconds: 5 });
export const gatewayTimeout = (detail: string) => new DomainError("upstream-timeout", detail);
export const internalError = () => new DomainError("internal-error", "An unexpected error occurred on the server.");

/** A single-field validation failure. */
export const invalidField = (path: string, message: string, code: ProblemType = "validation-failed") =>
  unprocessable(`${path}: ${message}`, [{ path, message }], code);

export type { ProblemType };
