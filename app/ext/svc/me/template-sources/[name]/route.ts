// GET, PATCH, DELETE /ext/svc/me/template-sources/{name} – read, change or remove one of the caller's personal sources
import { sourceItemRoute } from "@/lib/http/routes/sources";

export const { GET, POST, PUT, PATCH, DELETE } = sourceItemRoute("personal");
