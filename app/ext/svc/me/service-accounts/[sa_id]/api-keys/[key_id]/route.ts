// DELETE /ext/svc/me/service-accounts/{sa_id}/api-keys/{key_id} – revoke a service account's key
import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { apiKeyItemRoute, keyOwners } from "@/lib/http/routes/identity";

export const { GET, POST, PUT, PATCH, DELETE } = apiKeyItemRoute(identityEndpoints.serviceAccountApiKeys, keyOwners.serviceAccount);
