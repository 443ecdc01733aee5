/**
 * Bounds on what one principal may hold (CONTRACT §18): one more answers 409 `limit-reached`.
 * Kept in one module so the API, the console and the tests name the same numbers.
 */

/** API keys that still work (neither revoked nor expired) per user or service account. */
export const MAX_API_KEYS_PER_PRINCIPAL = 50;
