import { defineEndpoint } from "@/lib/contracts/endpoint";
import { auditRoutes } from "./routes";
import { AuditEntry, AuditExportQuery, AuditLog, AuditQuery } from "./schemas";

export const auditEndpoints = {
  list: defineEndpoint({
    ...auditRoutes.list,
    tag: "Audit",
    access: "admin",
    status: 200,
    query: AuditQuery,
    response: AuditLog,
    summary: "The audit log of writes, newest first, filtered by actor, action, target, target type and time; paged with limit and cursor",
  }),
  export: defineEndpoint({
    ...auditRoutes.export,
    tag: "Audit",
    access: "admin",
    status: 200,
    query: AuditExportQuery,
    response: AuditEntry,
    stream: "ndjson",
    summary:
      "Every audit entry the list's filters select, newest first, as application/x-ndjson: one entry per line, the same JSON as the list's entries",
  }),
};
