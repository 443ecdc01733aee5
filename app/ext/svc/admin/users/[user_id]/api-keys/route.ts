// GET, POST /ext/svc/admin/users/{user_id}/api-keys – any user's API keys (admin)
import { identityEndpoints } from "@/lib/identity/endpoints";
import { apiKeyCollectionRoute, keyOwners } from "@/lib/identity/routes";

export const { GET, POST, PUT, PATCH, DELETE } = apiKeyCollectionRoute(identityEndpoints.userApiKeys, keyOwners.anyUser);
