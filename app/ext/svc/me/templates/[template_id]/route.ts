// GET, PATCH, DELETE /ext/svc/me/templates/{template_id} – read, edit or delete one of the caller's personal templates
import { templateItemRoute } from "@/lib/http/routes/templates";

export const { GET, POST, PUT, PATCH, DELETE } = templateItemRoute("personal");
