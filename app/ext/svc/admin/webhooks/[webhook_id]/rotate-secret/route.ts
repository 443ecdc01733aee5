// POST /ext/svc/admin/webhooks/{webhook_id}/rotate-secret – a new signing secret; the previous one signs for 24 hours more
import { webhookRotateSecretRoute } from "@/lib/http/routes/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = webhookRotateSecretRoute("server");
