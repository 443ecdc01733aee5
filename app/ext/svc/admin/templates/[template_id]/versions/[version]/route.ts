// GET /ext/svc/admin/templates/{template_id}/versions/{version} – one version of a server template, with its content
import { templateVersionRoute } from "@/lib/templates/lifecycle-routes";

export const { GET, POST, PUT, PATCH, DELETE } = templateVersionRoute("server");
