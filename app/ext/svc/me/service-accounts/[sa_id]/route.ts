// DELETE /ext/svc/me/service-accounts/{sa_id} – delete one of the caller's service accounts

import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { handle, route } from "@/lib/http/route";
import { deleteServiceAccount } from "@/lib/services/identity/service-accounts";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  DELETE: handle(identityEndpoints.serviceAccounts.remove, ({ ctx, params }) => deleteServiceAccount(ctx, { id: params.sa_id })),
});
