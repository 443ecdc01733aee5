// GET /ext/svc/templates/{scope}/{template_id} – one template the caller may use (personal/{id} or server/{id})
import { usableTemplateRoute } from "@/lib/http/routes/template-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE } = usableTemplateRoute();
