// GET /ext/svc/admin/templates/{template_id}/update-preview – installed vs latest, to review an update
import { templateUpdatePreviewRoute } from "@/lib/http/routes/templates";

export const { GET, POST, PUT, PATCH, DELETE } = templateUpdatePreviewRoute("server");
