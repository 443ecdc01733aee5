// POST /ext/svc/admin/templates/check-updates – check every installed server template for updates
import { templateCheckUpdatesRoute } from "@/lib/http/routes/template-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE } = templateCheckUpdatesRoute("server");
