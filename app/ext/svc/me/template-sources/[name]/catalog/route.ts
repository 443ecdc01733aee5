// GET /ext/svc/me/template-sources/{name}/catalog – browse a source's catalog before installing
import { sourceCatalogRoute } from "@/lib/http/routes/sources";

export const { GET, POST, PUT, PATCH, DELETE } = sourceCatalogRoute("personal");
