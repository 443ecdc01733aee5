// DELETE /ext/svc/admin/users/{user_id}/sso-identity – unlink a user's single-sign-on account (admin)

import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { handle, route } from "@/lib/http/route";
import { unlinkSsoIdentity } from "@/lib/services/identity/users";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  DELETE: handle(identityEndpoints.users.unlinkSso, ({ ctx, params }) => unlinkSsoIdentity(ctx, { id: params.user_id })),
});
