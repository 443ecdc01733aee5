// GET /ext/svc/banks/{bank_id}/policy/resolve – the strategy and public access that apply in one context
import { policyResolveRoute } from "@/lib/http/routes/policy";

export const { GET, POST, PUT, PATCH, DELETE } = policyResolveRoute();
