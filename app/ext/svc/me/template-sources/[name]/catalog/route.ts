// GET /ext/svc/me/template-sources/{name}/catalog – browse a source's catalog before installing
import { sourceCatalogRoute } from "@/lib/sources/routes";

export const { GET, POST, PUT, PATCH, DELETE } = sourceCatalogRoute("personal");
