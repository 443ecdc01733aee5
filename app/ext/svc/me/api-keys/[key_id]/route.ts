// DELETE /ext/svc/me/api-keys/{key_id} – revoke one of the calling user's keys
import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { apiKeyItemRoute, keyOwners } from "@/lib/http/routes/identity";

export const { GET, POST, PUT, PATCH, DELETE } = apiKeyItemRoute(identityEndpoints.myApiKeys, keyOwners.self);
