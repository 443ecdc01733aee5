// No Node or database imports: the sign-in page uses this too.

/** What a sign-in refused with 429 tells the user: how long to wait, in whole minutes (Retry-After counts seconds). */
export function tooManySignInsMessage(retryAfterSeconds: number): string {
  const minutes = Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0 ? Math.ceil(retryAfterSeconds / 60) : 15;
  return `Too many failed sign-ins. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}
