// GET, POST /ext/svc/me/api-keys – the calling user's API keys (users only)
import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { apiKeyCollectionRoute, keyOwners } from "@/lib/http/routes/identity";

export const { GET, POST, PUT, PATCH, DELETE } = apiKeyCollectionRoute(identityEndpoints.myApiKeys, keyOwners.self);
