// GET /ext/svc/me/templates/{template_id}/update-preview – installed vs latest, to review an update
import { templateUpdatePreviewRoute } from "@/lib/http/routes/templates";

export const { GET, POST, PUT, PATCH, DELETE } = templateUpdatePreviewRoute("personal");
