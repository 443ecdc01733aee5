// GET, PATCH, DELETE /ext/svc/me/webhooks/{webhook_id} – read, change or remove one of the caller's own webhooks
import { webhookItemRoute } from "@/lib/http/routes/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = webhookItemRoute("personal");
