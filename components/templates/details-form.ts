import {
  CONTENT_FIELDS,
  type ContentValue,
  DETAIL_KEYS,
  type DetailKey,
  type KindOf,
  type TemplateDetails,
} from "@/lib/contracts/templates/content-fields";

// A template's details (its content but the manifest, lib/contracts/templates/content-fields.ts)
// as the console's forms hold them, and what the forms send: the one field list the forms,
// diffs, version drawer and update summary use, with each field's label.

/** The details as a form holds them: a text as a string ("" for none), a list as an array. */
export type DetailsForm = { [K in DetailKey]: KindOf<K> extends "list" ? string[] : string };

export { DETAIL_KEYS };

/** A detail's label ("Name", "Home page"). */
export const detailLabel = (key: DetailKey): string => CONTENT_FIELDS[key].label;

const isList = (key: DetailKey) => CONTENT_FIELDS[key].kind === "list";
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);
/** A form's text as the API holds it: blank is none (null) where the field may be null. */
const textValue = (key: DetailKey, text: string) => (CONTENT_FIELDS[key].kind === "text?" && text.trim() === "" ? null : text);

function build<T>(value: (key: DetailKey) => unknown): T {
  return Object.fromEntries(DETAIL_KEYS.map((key) => [key, value(key)])) as T;
}

export const emptyDetails: DetailsForm = build((key) => (isList(key) ? [] : ""));

/** A template's details for the form (none as "", lists copied). */
export const detailsOf = (t: TemplateDetails): DetailsForm =>
  build((key) => {
    const value = t[key];
    return Array.isArray(value) ? [...value] : (value ?? "");
  });

/** What the form changed of a template's details, as PATCH fields; empty when nothing changed. */
export function changedDetails(t: TemplateDetails, form: DetailsForm): Partial<TemplateDetails> {
  const changes: Record<string, unknown> = {};
  for (const key of DETAIL_KEYS) {
    const [was, now] = [t[key], form[key]];
    if (Array.isArray(was) && Array.isArray(now)) {
      if (!sameList(was, now)) changes[key] = now;
    } else if (typeof now === "string" && textValue(key, now) !== was) changes[key] = textValue(key, now);
  }
  return changes as Partial<TemplateDetails>;
}

/** The details a new template is created with: every `text`, and the others given. */
type CreatedDetails = { [K in DetailKey as KindOf<K> extends "text" ? K : never]: string } & {
  [K in DetailKey as KindOf<K> extends "text" ? never : K]?: ContentValue<K>;
};

/** The details of a new template (POST T): a blank text that may be none is left out. */
export const createdDetails = (form: DetailsForm): CreatedDetails =>
  Object.fromEntries(
    DETAIL_KEYS.flatMap((key) => {
      const value = form[key];
      return typeof value === "string" && textValue(key, value) === null ? [] : [[key, value]];
    }),
  ) as CreatedDetails;

const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** The form's details, with each empty one filled from a catalog entry's (an uploaded file). */
export const fillFromEntry = (form: DetailsForm, entry: Record<string, unknown>): DetailsForm =>
  build((key) => {
    const [mine, theirs] = [form[key], entry[key]];
    if (Array.isArray(mine)) return mine.length ? mine : strings(theirs);
    return mine || (typeof theirs === "string" ? theirs : "");
  });

/** A detail's value as text: lists joined, nothing as "none". */
export const showValue = (value: unknown) =>
  Array.isArray(value) ? (value.length ? value.join(", ") : "none") : value === null || value === "" ? "none" : String(value);
