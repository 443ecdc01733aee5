// Exit codes and failures of the CLI. Every failure, from the API or from the CLI itself, is
// carried as a problem-details object so that `--json` prints one shape whatever went wrong.
import { STATUS_CODES } from "node:http";
import { PROBLEM_TYPE_PREFIX } from "@/lib/contracts/problem-type-prefix";
import { PROBLEM_STATUS, type ProblemType } from "@/lib/contracts/problem-types";
import type { Schemas } from "../client";

/** The exit codes scripts can rely on; cli/README.md documents them. */
export const ExitCode = {
  ok: 0,
  /** The API refused the request (a 4xx other than 401/403), or `templates validate` found errors. */
  refused: 1,
  /** Unknown command or option, missing argument, unreadable input file. */
  usage: 2,
  /** Server unreachable, timed out, answered 5xx, or answered something that is not the API. */
  unreachable: 3,
  /** Not logged in, or the key was refused (401) or not allowed (403). */
  auth: 4,
  /** A command over many items where some failed and others succeeded. */
  partial: 5,
  /** Someone else changed what the command read before it wrote (412 `precondition-failed`): nothing was written. */
  changed: 6,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

type FieldError = Schemas["FieldError"];

/**
 * An `application/problem+json` answer of the API, or one the CLI makes for its own failures
 * (type `urn:bank-templates:cli:…`, no status). Fields are optional because an answer that did
 * not come from the API (a proxy's error page) has only a status.
 */
export interface ProblemReport {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: FieldError[];
  request_id?: string;
  [key: string]: unknown;
}

export class CliFailure extends Error {
  constructor(
    readonly problem: ProblemReport,
    readonly exitCode: ExitCode,
  ) {
    super(problem.detail ?? problem.title ?? "failed");
  }
}

/** The API's name for what went wrong (`local-edits`), when the problem is one of the API's. */
function apiProblemType(problem: ProblemReport): ProblemType | undefined {
  const name = problem.type?.startsWith(PROBLEM_TYPE_PREFIX) ? problem.type.slice(PROBLEM_TYPE_PREFIX.length) : undefined;
  return name !== undefined && Object.hasOwn(PROBLEM_STATUS, name) ? (name as ProblemType) : undefined;
}

const AUTH_PROBLEMS: ReadonlySet<ProblemType> = new Set([
  "unauthorized",
  "forbidden",
  "cross-site-session",
  "key-expired",
  "key-read-only",
]);

/**
 * The exit code of a failure: by the API's problem type, as the server's DomainError names it
 * (the key refused or not allowed: 4; changed since it was read: 6; the server's or an
 * upstream's failure: 3; any other refusal: 1). An answer that is not the API's (a proxy's error page) goes by `status`.
 */
export function exitCodeFor(problem: ProblemReport, status = problem.status): ExitCode {
  const type = apiProblemType(problem);
  if (type === undefined) return exitCodeForStatus(status);
  if (AUTH_PROBLEMS.has(type)) return ExitCode.auth;
  if (type === "precondition-failed") return ExitCode.changed;
  return PROBLEM_STATUS[type] < 500 ? ExitCode.refused : ExitCode.unreachable;
}

function exitCodeForStatus(status: number | undefined): ExitCode {
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status !== undefined && status >= 400 && status < 500) return ExitCode.refused;
  return ExitCode.unreachable;
}

/** The problem of an error answer; a body that is not problem details keeps only the status. */
export function problemFromAnswer(status: number, body: unknown): ProblemReport {
  if (body && typeof body === "object" && !Array.isArray(body)) return { status, ...(body as ProblemReport) };
  return {
    type: "about:blank",
    title: STATUS_CODES[status] ?? "Error",
    status,
    detail: `The server answered ${status} without problem details.`,
  };
}

export function cliProblem(kind: string, title: string, detail: string): ProblemReport {
  return { type: `urn:bank-templates:cli:${kind}`, title, detail };
}

export const usageError = (detail: string) => new CliFailure(cliProblem("usage", "Usage error", detail), ExitCode.usage);

export const notLoggedIn = (detail: string) => new CliFailure(cliProblem("not-logged-in", "Not logged in", detail), ExitCode.auth);
