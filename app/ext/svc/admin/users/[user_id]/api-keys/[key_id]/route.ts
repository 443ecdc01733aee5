// DELETE /ext/svc/admin/users/{user_id}/api-keys/{key_id} – revoke any user's key (admin)
import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { apiKeyItemRoute, keyOwners } from "@/lib/http/routes/identity";

export const { GET, POST, PUT, PATCH, DELETE } = apiKeyItemRoute(identityEndpoints.userApiKeys, keyOwners.anyUser);
