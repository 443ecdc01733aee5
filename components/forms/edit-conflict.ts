import { entityTagOf } from "@/lib/client/entity-tag";
import { ApiProblem } from "@/lib/client/problem";
import { plural } from "@/lib/shared/plural";
import { sameJson } from "@/lib/shared/same-json";

// A save refused because someone else changed the resource after the form read it (CONTRACT
// §19's 412 `precondition-failed`): what the form needs to say so and to let the person merge
// their change onto the other one, overwrite it, or take it instead of their own.

/** A save found the resource at another version than the one the form showed: nothing was written. */
export const isEditConflict = (error: unknown): boolean => error instanceof ApiProblem && error.problemType === "precondition-failed";

/** One change someone made meanwhile, as the resource's history or the audit log names it. */
export interface ChangeAuthor {
  /** Who: a principal id (a user or a service account). */
  actor: string;
  /** When: an API timestamp. */
  at: string;
}

const toTheSecond = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** The people in a list, in words: "nadia", "nadia and omar", "nadia, omar and 2 others". */
function namesOf(actors: readonly string[]): string {
  const unique = [...new Set(actors)];
  if (unique.length <= 2) return unique.join(" and ");
  const others = unique.length - 2;
  return `${unique[0]}, ${unique[1]} and ${plural(others, "other")}`;
}

/**
 * Who changed it meanwhile, in a sentence: the changes the history names since the version the
 * form showed, newest first; when none can be named (no history readable, or it does not go back
 * that far), "someone", plainly.
 */
export function changedBySentence(authors: readonly ChangeAuthor[] | null, deleted: boolean): string {
  const verb = deleted ? "deleted it" : "changed it";
  if (!authors || authors.length === 0) return `Someone ${verb}; who and when cannot be known here.`;
  const last = toTheSecond.format(new Date(authors[0]!.at));
  if (authors.length === 1) return `${authors[0]!.actor} ${verb} on ${last}.`;
  return `${namesOf(authors.map((a) => a.actor))} changed it ${plural(authors.length, "time")}, last on ${last}${deleted ? ", deleting it" : ""}.`;
}

/**
 * The changes made since the version a form showed, from a history listed newest first: those
 * before the newest entry that left exactly that version (`left`), all of them when none did.
 */
export function changesSince<E extends ChangeAuthor>(entries: readonly E[], shown: unknown, left: (entry: E) => unknown): E[] {
  const at = entries.findIndex((entry) => sameJson(left(entry), shown));
  return at === -1 ? [...entries] : entries.slice(0, at);
}

/**
 * The version to write a listed item against (list rows carry no ETag of their own): that of
 * `now`, the item read again when the delete was asked for, as long as it still holds what the
 * row showed (the fields both have, or only `compared`: what people set, not what the server
 * keeps track of on its own). When it does not, someone changed it since the list was read:
 * refused, so nobody deletes or overwrites what they have not seen. Undefined while `now` is not read.
 */
export function versionOfRow<T extends object>(
  row: T,
  now: T | undefined,
  what: string,
  compared: readonly (keyof T & string)[] = Object.keys(row) as (keyof T & string)[],
): string | undefined {
  if (now === undefined) return undefined;
  const [shown, read] = [row as Record<string, unknown>, now as Record<string, unknown>];
  const changed = compared.some((key) => Object.hasOwn(read, key) && !sameJson(shown[key], read[key]));
  if (changed) {
    throw new ApiProblem(
      412,
      "Changed Meanwhile",
      `Someone changed this ${what} after the list was loaded, so nothing was done. Look at it as it is now, then try again.`,
    );
  }
  return entityTagOf(now);
}
