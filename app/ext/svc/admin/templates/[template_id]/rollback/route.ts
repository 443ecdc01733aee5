// POST /ext/svc/admin/templates/{template_id}/rollback – restore a version of a server template
import { templateRollbackRoute } from "@/lib/templates/lifecycle-routes";

export const { GET, POST, PUT, PATCH, DELETE } = templateRollbackRoute("server");
