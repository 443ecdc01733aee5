// DELETE /ext/svc/me/api-keys/{key_id} – revoke one of the calling user's keys
import { identityEndpoints } from "@/lib/identity/endpoints";
import { apiKeyItemRoute, keyOwners } from "@/lib/identity/routes";

export const { GET, POST, PUT, PATCH, DELETE } = apiKeyItemRoute(identityEndpoints.myApiKeys, keyOwners.self);
