// GET /ext/svc/admin/templates/{template_id}/versions – the versions of a server template, newest first
import { templateVersionsRoute } from "@/lib/templates/lifecycle-routes";

export const { GET, POST, PUT, PATCH, DELETE } = templateVersionsRoute("server");
