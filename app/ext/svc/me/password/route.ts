// POST /ext/svc/me/password – change the caller's password

import { handle, route } from "@/lib/http/route";
import { identityEndpoints } from "@/lib/identity/endpoints";
import { changeOwnPassword } from "@/lib/identity/password-change";
import { clientAddress } from "@/lib/ratelimit/client-address";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: handle(identityEndpoints.changePassword, async ({ ctx, body }) => {
    await changeOwnPassword(ctx.app.db, ctx.principal, body, clientAddress(ctx.request.headers, ctx.app.config.trustedProxies));
  }),
});
