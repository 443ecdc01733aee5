// GET, PUT, DELETE /ext/svc/banks/{bank_id}/policy – read, create or replace, and delete a bank's policy
import { policyRoute } from "@/lib/http/routes/policy";

export const { GET, POST, PUT, PATCH, DELETE } = policyRoute();
