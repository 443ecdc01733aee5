// GET /ext/svc/templates/{scope}/{template_id} – one template the caller may use (personal/{id} or server/{id})
import { usableTemplateRoute } from "@/lib/templates/lifecycle-routes";

export const { GET, POST, PUT, PATCH, DELETE } = usableTemplateRoute();
