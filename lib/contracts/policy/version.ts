/**
 * The one policy document version this server understands (CONTRACT §9). A module of its own,
 * without zod, so the console's policy editor can import it without shipping the schemas
 * (lib/contracts/policy/schemas.ts re-exports it).
 */
export const POLICY_VERSION = "2026-03-24";
