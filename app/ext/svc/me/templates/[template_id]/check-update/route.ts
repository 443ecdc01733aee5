// GET /ext/svc/me/templates/{template_id}/check-update – does the source have a newer revision
import { templateCheckUpdateRoute } from "@/lib/templates/routes";

export const { GET, POST, PUT, PATCH, DELETE } = templateCheckUpdateRoute("personal");
