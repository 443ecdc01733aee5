// DELETE /ext/svc/me/service-accounts/{sa_id} – delete one of the caller's service accounts

import { handle, route } from "@/lib/http/route";
import { identityEndpoints } from "@/lib/identity/endpoints";
import { deleteServiceAccount } from "@/lib/identity/service-accounts";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  DELETE: handle(identityEndpoints.serviceAccounts.remove, ({ ctx, params }) =>
    deleteServiceAccount(ctx.app.db, ctx.principal.userId, params.sa_id),
  ),
});
