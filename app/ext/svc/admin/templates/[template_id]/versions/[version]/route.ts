// GET /ext/svc/admin/templates/{template_id}/versions/{version} – one version of a server template, with its content
import { templateVersionRoute } from "@/lib/http/routes/template-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE } = templateVersionRoute("server");
