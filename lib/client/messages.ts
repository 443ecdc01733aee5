import type { ProblemType } from "@/lib/contracts/problem-types";
import { ApiProblem, describeError } from "./problem";

/**
 * The console's one mapping from an API problem to what a person reads: a message at each form
 * field the problem names, and a sentence for the rest. Pages and forms use this instead of
 * reading `detail` and `errors[]` themselves, so the same failure reads the same everywhere.
 *
 * The API already words its field messages for people (lib/contracts/validation.ts: "must not be
 * empty", "must be at most 200 characters"); here they are placed, and the failures whose
 * `detail` is written for API callers get a sentence that says what to do in the console.
 */

/** The form field an error path belongs to: the field itself, or the field a nested path starts with (`tags[1]` → `tags`). */
function fieldOfPath<F extends string>(path: string, fields: readonly F[]): F | undefined {
  return fields.find((field) => path === field || path.startsWith(`${field}[`) || path.startsWith(`${field}.`));
}

/** A nested error's message with where in the field it is: `[1]` → "item 2 must not be empty". */
function withPlace(rest: string, message: string): string {
  const place = rest
    .replace(/^\./, "")
    .replace(/^\[(\d+)\]\.?/, (_, index: string) => `item ${Number(index) + 1} `)
    .trim();
  return place ? `${place} ${message}` : message;
}

export interface ProblemMessages<F extends string> {
  /** A message at each field the problem names: "must not be empty". */
  fields: Partial<Record<F, string>>;
  /** A sentence for what no field of the form shows, or null when the fields say it all. */
  form: string | null;
}

export interface ProblemMessageOptions<F extends string> {
  /**
   * Refusals without `errors[]` that still belong to one field, by status (a 404 on bank
   * creation is the template) or by problem type (`wrong-password` → `current_password`).
   */
  statusFields?: Partial<Record<number, F>>;
  typeFields?: Partial<Record<ProblemType, F>>;
}

/**
 * Spreads a problem over a form: each of `errors[]` at the field its path names (nested paths at
 * their field, with where in it in front: "item 2 must be a string"), and one sentence for the
 * rest. Anything not an ApiProblem (a bug, a lost connection) is a form-level sentence.
 */
export function problemMessages<F extends string>(
  error: unknown,
  fields: readonly F[],
  { statusFields = {}, typeFields = {} }: ProblemMessageOptions<F> = {},
): ProblemMessages<F> {
  if (!(error instanceof ApiProblem)) return { fields: {}, form: error ? describeError(error) : null };
  const byField: Partial<Record<F, string[]>> = {};
  const unplaced: string[] = [];
  for (const { path, message } of error.errors) {
    const field = fieldOfPath(path, fields);
    if (field === undefined) {
      unplaced.push(`${path === "(body)" ? "The request" : path} ${message}`);
      continue;
    }
    byField[field] = [...(byField[field] ?? []), withPlace(path.slice(field.length), message)];
  }
  const out: Partial<Record<F, string>> = {};
  for (const [field, messages] of Object.entries(byField) as [F, string[]][]) out[field] = messages.join("; ");

  if (error.errors.length === 0) {
    const field = (error.problemType === null ? undefined : typeFields[error.problemType]) ?? statusFields[error.status];
    if (field !== undefined) return { fields: { [field]: describeError(error) } as Partial<Record<F, string>>, form: null };
  }
  if (error.errors.length > 0 && unplaced.length === 0) return { fields: out, form: null };
  // Some errors name no field here: say them in one sentence (the detail names the first).
  const form =
    unplaced.length > 0 && Object.keys(out).length > 0
      ? `Also: ${unplaced.join("; ")}.`
      : unplaced.length > 0
        ? error.detail
        : describeError(error);
  return { fields: out, form };
}
