// GET, POST /ext/svc/me/service-accounts/{sa_id}/api-keys – keys of one of the caller's service accounts
import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { apiKeyCollectionRoute, keyOwners } from "@/lib/http/routes/identity";

export const { GET, POST, PUT, PATCH, DELETE } = apiKeyCollectionRoute(identityEndpoints.serviceAccountApiKeys, keyOwners.serviceAccount);
