// GET, DELETE /ext/svc/me/service-accounts/{sa_id} – read or delete one of the caller's service accounts

import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { handle, route } from "@/lib/http/route";
import { deleteServiceAccount, getServiceAccount } from "@/lib/services/identity/service-accounts";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(identityEndpoints.serviceAccounts.get, ({ ctx, params }) => getServiceAccount(ctx, { id: params.sa_id })),
  DELETE: handle(identityEndpoints.serviceAccounts.remove, ({ ctx, params }) => deleteServiceAccount(ctx, { id: params.sa_id })),
});
