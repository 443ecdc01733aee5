// GET /ext/svc/admin/audit/export – every entry the audit log's filters select, newest first, streamed as NDJSON (admin)
import { auditEndpoints } from "@/lib/contracts/audit/endpoints";
import { handle, NdjsonStream, route } from "@/lib/http/route";
import { exportAuditEntries } from "@/lib/services/audit/log";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(auditEndpoints.export, async ({ ctx, query }) => new NdjsonStream(exportAuditEntries(ctx, query))),
});
