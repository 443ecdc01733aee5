// GET /ext/svc/me/templates/{template_id}/versions – the versions of one of the caller's personal templates, newest first
import { templateVersionsRoute } from "@/lib/http/routes/template-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE } = templateVersionsRoute("personal");
