// GET, POST /ext/svc/admin/templates – list and create server templates (admin)
import { templateCollectionRoute } from "@/lib/templates/routes";

export const { GET, POST, PUT, PATCH, DELETE } = templateCollectionRoute("server");
