// GET /ext/svc/me/templates/{template_id}/versions/{version} – one version of one of the caller's personal templates, with its content
import { templateVersionRoute } from "@/lib/http/routes/template-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE } = templateVersionRoute("personal");
