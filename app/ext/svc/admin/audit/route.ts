// GET /ext/svc/admin/audit – the audit log of writes, newest first, filtered and paged (admin)
import { auditEndpoints } from "@/lib/contracts/audit/endpoints";
import { handle, route } from "@/lib/http/route";
import { listAuditEntries } from "@/lib/services/audit/log";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(auditEndpoints.list, ({ ctx, query }) => listAuditEntries(ctx, query)),
});
