// GET, PATCH, DELETE /ext/svc/admin/templates/{template_id} – read, edit or delete one of server templates (admin)
import { templateItemRoute } from "@/lib/http/routes/templates";

export const { GET, POST, PUT, PATCH, DELETE } = templateItemRoute("server");
