// GET, POST /ext/svc/me/webhooks – list and add the caller's own webhooks
import { webhookCollectionRoute } from "@/lib/http/routes/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = webhookCollectionRoute("personal");
