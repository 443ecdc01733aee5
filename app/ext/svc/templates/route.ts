// GET /ext/svc/templates – the templates the caller may use: its personal ones and every server template
import { usableTemplatesRoute } from "@/lib/templates/lifecycle-routes";

export const { GET, POST, PUT, PATCH, DELETE } = usableTemplatesRoute();
