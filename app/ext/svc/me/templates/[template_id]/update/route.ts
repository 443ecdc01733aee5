// POST /ext/svc/me/templates/{template_id}/update – update one of the caller's personal templates from its source
import { templateUpdateRoute } from "@/lib/http/routes/templates";

export const { GET, POST, PUT, PATCH, DELETE } = templateUpdateRoute("personal");
