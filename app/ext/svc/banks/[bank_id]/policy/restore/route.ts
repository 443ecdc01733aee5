// POST /ext/svc/banks/{bank_id}/policy/restore – put back the policy an entry of the bank's history left
import { policyRestoreRoute } from "@/lib/http/routes/policy";

export const { GET, POST, PUT, PATCH, DELETE } = policyRestoreRoute();
