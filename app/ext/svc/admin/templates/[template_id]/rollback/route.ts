// POST /ext/svc/admin/templates/{template_id}/rollback – restore a version of a server template
import { templateRollbackRoute } from "@/lib/http/routes/template-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE } = templateRollbackRoute("server");
