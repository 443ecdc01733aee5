// GET /ext/svc/admin/webhooks/{webhook_id}/deliveries/{delivery_id} – one attempt, with its payload and the answer it got
import { webhookDeliveryRoute } from "@/lib/http/routes/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = webhookDeliveryRoute("server");
