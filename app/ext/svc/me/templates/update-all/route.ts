// POST /ext/svc/me/templates/update-all – update every installed personal template from its source
import { templateUpdateAllRoute } from "@/lib/http/routes/template-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE } = templateUpdateAllRoute("personal");
