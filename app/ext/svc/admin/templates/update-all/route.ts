// POST /ext/svc/admin/templates/update-all – update every installed server template from its source
import { templateUpdateAllRoute } from "@/lib/http/routes/template-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE } = templateUpdateAllRoute("server");
