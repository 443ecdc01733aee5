// GET /ext/svc/admin/templates/{template_id}/versions – the versions of a server template, newest first
import { templateVersionsRoute } from "@/lib/http/routes/template-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE } = templateVersionsRoute("server");
