import type { RateLimit } from "./window-counter";

// The limits of CONTRACT §18 (which changed those of §11). "More than N within the window"
// answers 429, so N events pass and the (N+1)th is refused.

/**
 * Failed sign-ins for one user id from one client address: more than 10 within 15 minutes.
 * Counted per pair, not per id, so an attacker's guesses never lock the user out elsewhere.
 */
export const SIGN_IN_FAILURES_PER_USER_AND_ADDRESS: RateLimit = { bucket: "sign-in:user-address", limit: 10, windowSeconds: 15 * 60 };

/**
 * Failed sign-ins from one client address, whatever the user id: more than 50 within 15
 * minutes, except for user ids known at that address (KNOWN_ADDRESS_DAYS).
 */
export const SIGN_IN_FAILURES_PER_ADDRESS: RateLimit = { bucket: "sign-in:address", limit: 50, windowSeconds: 15 * 60 };

/** How long a successful sign-in from an address exempts that user id from the address's limit. */
export const KNOWN_ADDRESS_DAYS = 30;

/** Failed API-key authentications from one client address: more than 1,000 within a minute. Valid keys are never refused. */
export const API_KEY_FAILURES_PER_ADDRESS: RateLimit = { bucket: "api-key:address", limit: 1000, windowSeconds: 60 };
