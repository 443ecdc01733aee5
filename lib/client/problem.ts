import { PROBLEM_TYPE_PREFIX } from "@/lib/http/problem-type-prefix";

/** One field the API refused, `path` from the body's root: `url`, `manifest.directives[2].name`. */
export interface ProblemFieldError {
  path: string;
  message: string;
}

/** An error answer of /ext/svc (application/problem+json), or a failure to reach it. */
export class ApiProblem extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly errors: ProblemFieldError[];
  /**
   * The failure's name, from the body's `type` (`urn:bank-templates:problem:local-edits` →
   * `local-edits`); null when it has none. (Not `cause`: that is Error's wrapped error.)
   */
  readonly problemType: string | null;

  constructor(status: number, title: string, detail: string, errors: ProblemFieldError[] = [], type?: string) {
    super(detail);
    this.name = "ApiProblem";
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.errors = errors;
    this.problemType = type?.startsWith(PROBLEM_TYPE_PREFIX) ? type.slice(PROBLEM_TYPE_PREFIX.length) : null;
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
      const body = JSON.parse(text) as Partial<{ type: string; title: string; detail: string; errors: ProblemFieldError[] }>;
      if (typeof body.detail === "string") {
        const errors = Array.isArray(body.errors) ? body.errors.filter((e) => typeof e?.path === "string") : [];
        const type = typeof body.type === "string" ? body.type : undefined;
        return new ApiProblem(response.status, body.title ?? response.statusText, body.detail, errors, type);
      }
    } catch {
      // not JSON: a proxy's error page, for instance
    }
    return new ApiProblem(response.status, response.statusText || "Error", `The server answered ${response.status} ${response.statusText}.`.trim());
  }
}

/** A message for any thrown value, for alerts. */
export function describeError(error: unknown): string {
  if (error instanceof ApiProblem) return error.detail;
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}
