// GET /ext/svc/me/templates/{template_id}/update-preview – installed vs latest, to review an update
import { templateUpdatePreviewRoute } from "@/lib/templates/routes";

export const { GET, POST, PUT, PATCH, DELETE } = templateUpdatePreviewRoute("personal");
