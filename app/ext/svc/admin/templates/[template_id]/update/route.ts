// POST /ext/svc/admin/templates/{template_id}/update – update one of server templates (admin) from its source
import { templateUpdateRoute } from "@/lib/http/routes/templates";

export const { GET, POST, PUT, PATCH, DELETE } = templateUpdateRoute("server");
