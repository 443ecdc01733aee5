const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** An API timestamp in the reader's locale and time zone; "never" for null. */
export function formatTimestamp(iso: string | null): string {
  return iso ? dateTime.format(new Date(iso)) : "never";
}
