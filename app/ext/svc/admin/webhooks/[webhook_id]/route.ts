// GET, PATCH, DELETE /ext/svc/admin/webhooks/{webhook_id} – read, change or remove one of the server's webhooks
import { webhookItemRoute } from "@/lib/http/routes/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = webhookItemRoute("server");
