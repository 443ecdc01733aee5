import { z } from "zod";

/** ISO 8601 UTC with milliseconds and Z, the one timestamp format on the wire. */
export const timestamp = z.iso.datetime().meta({ example: "2026-11-22T10:15:30.123Z" });
export const iso = (date: Date) => date.toISOString();
export const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

export const role = z.enum(["admin", "member"]);
/** What a user or service account may do: the one definition, for the services, the sign-in and the console. */
export type Role = z.infer<typeof role>;

/** Ids of users and service accounts (CONTRACT §2). */
export const actorId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._@-]*$/, "must be 1-64 characters of a-z, 0-9, '.', '_', '@' or '-', starting with a letter or digit");

/**
 * A yes/no query parameter, false when absent. Its value arrives as text ("true", "false",
 * "1", "0"…), which z.stringbool reads; what it means is a boolean, so the OpenAPI document
 * says `type: boolean` and generated clients send `true`/`false` instead of any string.
 */
export const queryFlag = (description: string) =>
  z
    .stringbool()
    .default(false)
    .meta({ description, override: { type: "boolean", default: false } });
