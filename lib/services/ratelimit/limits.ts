import type { RateLimit } from "./window-counter";

// The limits of CONTRACT §11. "More than N within the window" answers 429, so N events
// pass and the (N+1)th is refused.

/** Failed sign-ins for one user id: more than 10 within 15 minutes. */
export const SIGN_IN_FAILURES_PER_USER: RateLimit = { bucket: "sign-in:user", limit: 10, windowSeconds: 15 * 60 };

/** Failed sign-ins from one client address, whatever the user id: more than 50 within 15 minutes. */
export const SIGN_IN_FAILURES_PER_ADDRESS: RateLimit = { bucket: "sign-in:address", limit: 50, windowSeconds: 15 * 60 };

/** Failed API-key authentications from one client address: more than 1,000 within a minute. */
export const API_KEY_FAILURES_PER_ADDRESS: RateLimit = { bucket: "api-key:address", limit: 1000, windowSeconds: 60 };
