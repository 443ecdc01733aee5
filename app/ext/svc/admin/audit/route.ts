// GET /ext/svc/admin/audit – the audit log of writes, newest first, filtered and paged (admin)
import { auditEndpoints } from "@/lib/audit/endpoints";
import { listAuditEntries } from "@/lib/audit/log";
import { handle, route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(auditEndpoints.list, ({ ctx, query }) => listAuditEntries(ctx.app.db, ctx.app.secretKey, query)),
});
