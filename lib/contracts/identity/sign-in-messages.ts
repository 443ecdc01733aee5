// No Node or database imports: the sign-in page uses this too.
import { plural } from "@/lib/shared/plural";

/**
 * What a sign-in refused with 429 tells the user: how long to wait, from the Retry-After
 * seconds rounded up to whole minutes, or in seconds when under a minute. The refusal is for
 * this user id or everyone at this client address (CONTRACT §18), hence "from here".
 */
export function tooManySignInsMessage(retryAfterSeconds: number): string {
  const seconds = Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0 ? Math.ceil(retryAfterSeconds) : 15 * 60;
  const wait = seconds < 60 ? plural(seconds, "second") : plural(Math.ceil(seconds / 60), "minute");
  return `Too many attempts from here. Try again in ${wait}.`;
}

/** The bootstrap admin (CONTRACT §1): the user BOOTSTRAP_ADMIN_* make, the one password sign-in left with PASSWORD_SIGN_IN=false. */
export const BOOTSTRAP_ADMIN_ID = "admin";
