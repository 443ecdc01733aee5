// GET, POST /ext/svc/admin/webhooks – list and add the server's webhooks
import { webhookCollectionRoute } from "@/lib/http/routes/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = webhookCollectionRoute("server");
