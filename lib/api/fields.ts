import { z } from "zod";

/** ISO 8601 UTC with milliseconds and Z, the one timestamp format on the wire. */
export const timestamp = z.iso.datetime().meta({ example: "2026-11-22T10:15:30.123Z" });
export const iso = (date: Date) => date.toISOString();
export const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

export const role = z.enum(["admin", "member"]);

/** Ids of users and service accounts (CONTRACT §2). */
export const principalId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._@-]*$/, "must be 1-64 characters of a-z, 0-9, '.', '_', '@' or '-', starting with a letter or digit");
