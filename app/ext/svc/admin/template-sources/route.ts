// GET, POST /ext/svc/admin/template-sources – list and register server-scope sources (admin)
import { sourceCollectionRoute } from "@/lib/http/routes/sources";

export const { GET, POST, PUT, PATCH, DELETE } = sourceCollectionRoute("server");
