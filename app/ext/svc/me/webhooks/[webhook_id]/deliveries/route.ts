// GET /ext/svc/me/webhooks/{webhook_id}/deliveries – the delivery attempts of the last 30 days
import { webhookDeliveriesRoute } from "@/lib/http/routes/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = webhookDeliveriesRoute("personal");
