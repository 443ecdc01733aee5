import { z } from "zod";
import { timestamp } from "@/lib/contracts/fields";

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
    request_id: z.string().meta({ description: "X-Request-Id of the write request." }),
  })
  .meta({ id: "AuditEntry" });

export const AuditLog = z
  .object({
    entries: z.array(AuditEntry),
    next_cursor: z.string().nullable().meta({ description: "Continues after the last entry; null on the last page." }),
  })
  .meta({ id: "AuditLog" });

export const AuditQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().optional(),
  actor: z.string().optional().meta({ description: "Only writes by this principal id (a user's or a service account's)." }),
  action: z.string().optional().meta({ description: "Only this action, `template.delete`." }),
  target: z
    .string()
    .optional()
    .meta({ description: "Only writes to this path or below it: `/ext/svc/admin/users/alice` also finds her API keys." }),
});
