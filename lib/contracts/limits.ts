/**
 * Bounds on what one user or service account may hold (CONTRACT §18), defined in this one place: one more
 * answers 409 `limit-reached`; the services check them, the console and the README name them.
 */

/** API keys that still work (neither revoked nor expired) per user or service account. */
export const MAX_API_KEYS_PER_ACTOR = 50;
export const MAX_SERVICE_ACCOUNTS_PER_USER = 100;
export const MAX_PERSONAL_SOURCES_PER_USER = 200;
export const MAX_PERSONAL_TEMPLATES_PER_USER = 2000;
/** Webhooks per user (CONTRACT §20), and the server's own (admin webhooks) at most as many. */
export const MAX_WEBHOOKS_PER_USER = 20;
