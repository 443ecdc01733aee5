// GET, POST /ext/svc/me/templates – list and create the caller's personal templates
import { templateCollectionRoute } from "@/lib/http/routes/templates";

export const { GET, POST, PUT, PATCH, DELETE } = templateCollectionRoute("personal");
