// DELETE /ext/svc/me/service-accounts/{sa_id}/api-keys/{key_id} – revoke a service account's key
import { identityEndpoints } from "@/lib/identity/endpoints";
import { apiKeyItemRoute, keyOwners } from "@/lib/identity/routes";

export const { GET, POST, PUT, PATCH, DELETE } = apiKeyItemRoute(identityEndpoints.serviceAccountApiKeys, keyOwners.serviceAccount);
