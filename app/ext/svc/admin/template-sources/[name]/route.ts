// GET, PATCH, DELETE /ext/svc/admin/template-sources/{name} – read, change or remove a server-scope source (admin)
import { sourceItemRoute } from "@/lib/http/routes/sources";

export const { GET, POST, PUT, PATCH, DELETE } = sourceItemRoute("server");
