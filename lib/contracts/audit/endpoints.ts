import { defineEndpoint } from "@/lib/contracts/endpoint";
import { AuditLog, AuditQuery } from "./schemas";

export const auditEndpoints = {
  list: defineEndpoint({
    method: "GET",
    path: "/ext/svc/admin/audit",
    tag: "Audit",
    access: "admin",
    status: 200,
    query: AuditQuery,
    response: AuditLog,
    summary: "The audit log of writes, newest first, filtered by actor, action and target; paged with limit and cursor",
  }),
};
