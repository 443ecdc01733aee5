// GET /ext/svc/me/templates/{template_id}/check-update – does the source have a newer revision
import { templateCheckUpdateRoute } from "@/lib/http/routes/templates";

export const { GET, POST, PUT, PATCH, DELETE } = templateCheckUpdateRoute("personal");
