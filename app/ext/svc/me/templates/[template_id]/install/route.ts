// POST /ext/svc/me/templates/{template_id}/install – install a source template into the caller's personal templates
import { templateInstallRoute } from "@/lib/http/routes/templates";

export const { GET, POST, PUT, PATCH, DELETE } = templateInstallRoute("personal");
