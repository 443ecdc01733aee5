// DELETE /ext/svc/admin/users/{user_id}/api-keys/{key_id} – revoke any user's key (admin)
import { identityEndpoints } from "@/lib/identity/endpoints";
import { apiKeyItemRoute, keyOwners } from "@/lib/identity/routes";

export const { GET, POST, PUT, PATCH, DELETE } = apiKeyItemRoute(identityEndpoints.userApiKeys, keyOwners.anyUser);
