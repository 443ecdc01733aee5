// GET, POST /ext/svc/admin/users/{user_id}/api-keys – any user's API keys (admin)
import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { apiKeyCollectionRoute, keyOwners } from "@/lib/http/routes/identity";

export const { GET, POST, PUT, PATCH, DELETE } = apiKeyCollectionRoute(identityEndpoints.userApiKeys, keyOwners.anyUser);
