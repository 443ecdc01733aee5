// POST /ext/svc/me/templates/update-all – update every installed personal template from its source
import { templateUpdateAllRoute } from "@/lib/templates/lifecycle-routes";

export const { GET, POST, PUT, PATCH, DELETE } = templateUpdateAllRoute("personal");
