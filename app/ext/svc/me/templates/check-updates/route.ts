// POST /ext/svc/me/templates/check-updates – check every installed personal template for updates
import { templateCheckUpdatesRoute } from "@/lib/http/routes/template-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE } = templateCheckUpdatesRoute("personal");
