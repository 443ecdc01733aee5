// GET, POST /ext/svc/admin/templates – list and create server templates (admin)
import { templateCollectionRoute } from "@/lib/http/routes/templates";

export const { GET, POST, PUT, PATCH, DELETE } = templateCollectionRoute("server");
