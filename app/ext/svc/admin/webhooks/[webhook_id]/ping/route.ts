// POST /ext/svc/admin/webhooks/{webhook_id}/ping – send a webhook.ping now and answer the attempt
import { webhookPingRoute } from "@/lib/http/routes/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = webhookPingRoute("server");
