// POST /ext/svc/me/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver – send that event again
import { webhookRedeliverRoute } from "@/lib/http/routes/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = webhookRedeliverRoute("personal");
