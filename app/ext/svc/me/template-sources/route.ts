// GET, POST /ext/svc/me/template-sources – list and register the caller's personal sources
import { sourceCollectionRoute } from "@/lib/http/routes/sources";

export const { GET, POST, PUT, PATCH, DELETE } = sourceCollectionRoute("personal");
