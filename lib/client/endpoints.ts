/**
 * The endpoint contracts the console calls: the same list the server serves. Every area's
 * contract file must stay browser-safe (zod and schemas only); tests/client-contract.test.ts
 * fails when one reaches server-only code.
 */
export { endpoints } from "@/lib/api/endpoints";
