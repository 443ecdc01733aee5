// PATCH, DELETE /ext/svc/admin/template-sources/{name} – change or remove a server-scope source (admin)
import { sourceItemRoute } from "@/lib/http/routes/sources";

export const { GET, POST, PUT, PATCH, DELETE } = sourceItemRoute("server");
