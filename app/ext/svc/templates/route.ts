// GET /ext/svc/templates – the templates the caller may use: its personal ones and every server template
import { usableTemplatesRoute } from "@/lib/http/routes/template-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE } = usableTemplatesRoute();
