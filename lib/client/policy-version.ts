/**
 * The policy document version the server understands (CONTRACT §9), for the policy editor:
 * lib/contracts/policy/version.ts, a module without zod, so the browser gets the string and no schema.
 */
export { POLICY_VERSION } from "@/lib/contracts/policy/version";
