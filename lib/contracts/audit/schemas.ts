import { z } from "zod";
import { AUDIT_TARGET_TYPES } from "@/lib/contracts/audit-actions";
import { timestamp } from "@/lib/contracts/fields";

const AuditTargetType = z.enum(AUDIT_TARGET_TYPES);

const snapshot = (when: string) =>
  z.unknown().meta({
    description: `The resource as the API answered it ${when}, every secret removed; null for a creation's before and a deletion's after, and on entries older than these fields.`,
  });

export const AuditEntry = z
  .object({
    id: z.string(),
    at: timestamp,
    actor: z
      .object({
        principal_type: z.enum(["user", "service_account"]),
        principal_id: z.string(),
        user_id: z.string().meta({ description: "The user the principal acts for: itself, or a service account's owner." }),
      })
      .meta({ description: "Who made the write." }),
    action: z.string().meta({ description: "What was done, area first.", example: "template.install" }),
    target: z.string().meta({ description: "The path of the resource written.", example: "/ext/svc/me/templates/support" }),
    target_type: AuditTargetType.nullable().meta({ description: "What kind of resource the entry is about; null on older entries." }),
    target_id: z
      .string()
      .nullable()
      .meta({ description: "The resource's id as the API names it (for an install: the installed id); null on older entries." }),
    before: snapshot("before the write"),
    after: snapshot("after the write"),
    request_id: z.string().meta({ description: "X-Request-Id of the write request." }),
  })
  .meta({ id: "AuditEntry" });

export const AuditLog = z
  .object({
    entries: z.array(AuditEntry),
    next_cursor: z.string().nullable().meta({ description: "Continues after the last entry; null on the last page." }),
  })
  .meta({ id: "AuditLog" });

/**
 * An instant with its offset (`2026-11-22T10:15:30Z`, `2026-11-22T11:15:30.5+01:00`), as the
 * database reads it: from year 0001 (ISO 8601's year 0000 is not in its calendar) and with an
 * offset within ±15:59 (real ones lie within -12:00 and +14:00).
 */
const instant = z.iso
  .datetime({ offset: true })
  .refine((value) => !value.startsWith("0000"), "Use a year from 0001.")
  .refine((value) => Number(/[+-](\d\d):\d\d$/.exec(value)?.[1] ?? 0) < 16, "Use an offset from -15:59 to +15:59.");

/** The selection both the list and the export answer. */
const auditFilters = {
  actor: z.string().optional().meta({ description: "Only writes by this principal id (a user's or a service account's)." }),
  action: z.string().optional().meta({ description: "Only this action, `template.delete`." }),
  target: z
    .string()
    .optional()
    .meta({ description: "Only writes to this path or below it: `/ext/svc/admin/users/alice` also finds her API keys." }),
  target_type: AuditTargetType.optional().meta({ description: "Only entries about this kind of resource." }),
  from: instant
    .optional()
    .meta({ description: "Only entries at or after this time (ISO 8601 with Z or an offset within ±15:59; inclusive)." }),
  to: instant.optional().meta({ description: "Only entries before this time (ISO 8601 with Z or an offset within ±15:59; exclusive)." }),
};

export const AuditQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().optional(),
  ...auditFilters,
});

export const AuditExportQuery = z.strictObject(auditFilters);
