const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** An API timestamp in the reader's locale and time zone; "never" for null. */
export function formatTimestamp(iso: string | null): string {
  return iso ? dateTime.format(new Date(iso)) : "never";
}

const relativeTime = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const AGE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** How long ago an API timestamp was, in the largest unit that fits ("5 minutes ago", "yesterday", "now"). */
export function formatAge(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of AGE_UNITS) {
    if (Math.abs(seconds) >= size) return relativeTime.format(Math.trunc(seconds / size), unit);
  }
  return relativeTime.format(0, "second");
}
