/**
 * How much one user may hold (CONTRACT §18): the one place these bounds are defined. One more
 * answers 409 `limit-reached`; the services check them, the README lists them.
 */
export const MAX_SERVICE_ACCOUNTS_PER_USER = 100;
export const MAX_PERSONAL_SOURCES_PER_USER = 200;
export const MAX_PERSONAL_TEMPLATES_PER_USER = 2000;
