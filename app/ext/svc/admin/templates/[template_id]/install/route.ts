// POST /ext/svc/admin/templates/{template_id}/install – install a source template into server templates (admin)
import { templateInstallRoute } from "@/lib/http/routes/templates";

export const { GET, POST, PUT, PATCH, DELETE } = templateInstallRoute("server");
