// GET, POST /ext/svc/me/template-sources – list and register the caller's personal sources
import { sourceCollectionRoute } from "@/lib/sources/routes";

export const { GET, POST, PUT, PATCH, DELETE } = sourceCollectionRoute("personal");
