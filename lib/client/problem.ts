import type { FieldError, Problem } from "@/lib/contracts/problem-schema";
import { PROBLEM_TYPE_PREFIX } from "@/lib/contracts/problem-type-prefix";
import type { ProblemType } from "@/lib/contracts/problem-types";

/** An error answer of /ext/svc (application/problem+json), or a failure to reach it. */
export class ApiProblem extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[];
  /**
   * The failure's name, from the body's `type` (`urn:bank-templates:problem:local-edits` →
   * `local-edits`); null when it has none. One of the names the server's DomainError uses
   * (lib/contracts/problem-types.ts), taken on the API's word as its answers are. (Not `cause`:
   * that is Error's wrapped error.)
   */
  readonly problemType: ProblemType | null;

  constructor(status: number, title: string, detail: string, errors: FieldError[] = [], type?: string) {
    super(detail);
    this.name = "ApiProblem";
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.errors = errors;
    this.problemType = type?.startsWith(PROBLEM_TYPE_PREFIX) ? (type.slice(PROBLEM_TYPE_PREFIX.length) as ProblemType) : null;
  }

  /** The messages for one field, for showing at that field of a form. */
  fieldError(path: string): string | undefined {
    const messages = this.errors.filter((e) => e.path === path).map((e) => e.message);
    return messages.length ? messages.join("; ") : undefined;
  }

  /** Builds the problem from a failed response, whatever its body. */
  static async fromResponse(response: Response): Promise<ApiProblem> {
    const text = await response.text().catch(() => "");
    try {
      // Whatever answered may not be this API (a proxy's JSON error): trust no member unchecked.
      const body = JSON.parse(text) as Partial<Problem>;
      if (typeof body.detail === "string") {
        const errors = Array.isArray(body.errors) ? body.errors.filter((e) => typeof e?.path === "string") : [];
        const type = typeof body.type === "string" ? body.type : undefined;
        return new ApiProblem(response.status, body.title ?? response.statusText, body.detail, errors, type);
      }
    } catch {
      // not JSON: a proxy's error page, for instance
    }
    return new ApiProblem(
      response.status,
      response.statusText || "Error",
      `The server answered ${response.status} ${response.statusText}.`.trim(),
    );
  }
}

/**
 * Sentences by problem `type`, for the failures whose API wording assumes an API caller (a
 * `force=true` query, a `Retry-After` header) or where the console knows the next step.
 */
const SENTENCES: Partial<Record<ProblemType, (problem: ApiProblem) => string>> = {
  "id-taken": (p) => `${p.detail} Choose another.`,
  "local-edits": () =>
    "This template was edited here since it was installed, and updating it from its source would replace those edits. Update it from its own page, where you can choose to overwrite them.",
  "last-admin": (p) => `${p.detail} Make another user an active admin first.`,
  "precondition-failed": () =>
    "Someone else changed this after you opened it, so nothing was done. Look at it as it is now, then try again.",
  "rate-limited": () => "Too many attempts in a short time. Wait a minute, then try again.",
  "database-unavailable": () => "The server cannot reach its database right now. Try again in a moment.",
  "cross-site-session": () => "This request did not come from the console page. Reload the page and try again.",
  unauthorized: () => "Your session has ended. Sign in again to continue.",
  "payload-too-large": () => "What you sent is larger than the server accepts (1 MiB). Make it smaller and try again.",
  "unsupported-media-type": () => "The server did not accept what was sent. Reload the page and try again.",
  "malformed-json": () => "The server did not accept what was sent. Reload the page and try again.",
  "internal-error": () => "Something went wrong on the server. Try again; if it keeps failing, tell an admin.",
  "source-gone": (p) => `${p.detail} Install the template again from another source, or keep it as it is.`,
  "template-gone": (p) => `${p.detail} It can no longer be updated from there.`,
  "merge-conflict": () =>
    "Your edits and the source's changes touch the same parts of this template. Review the update to choose, for each part, which version to keep.",
  "merge-base-missing": () =>
    "The version this template was installed or last updated from is no longer kept, so your edits cannot be merged. Overwrite them instead (they stay in the template's versions).",
  "merge-invalid": (p) => `${p.detail} Review the update to choose other versions or edit the values, or to overwrite your edits.`,
  "merge-resolution-unknown": () =>
    "The template or its source changed since you chose, so your choices no longer match its conflicts. Review the update again.",
};

/**
 * The sentence for a whole problem (or any thrown value), for alerts and a form's own message: the
 * API's detail, or for the types above the console's own. lib/client/messages.ts places field errors.
 */
export function describeError(error: unknown): string {
  if (error instanceof ApiProblem) {
    const sentence = error.problemType === null ? undefined : SENTENCES[error.problemType];
    return sentence?.(error) ?? error.detail;
  }
  if (error instanceof Error && error.message) return error.message;
  return "Something went wrong.";
}

/** What `read` answers, or null when the server says there is no such thing (404). */
export async function nullWhenMissing<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiProblem && error.status === 404) return null;
    throw error;
  }
}
