// POST /ext/svc/me/templates/{template_id}/rollback – restore a version of one of the caller's personal templates
import { templateRollbackRoute } from "@/lib/http/routes/template-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE } = templateRollbackRoute("personal");
