// POST /ext/svc/me/password – change the caller's password

import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { handle, route } from "@/lib/http/route";
import { clientAddress } from "@/lib/platform/client-address";
import { changeOwnPassword } from "@/lib/services/identity/password-change";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: handle(identityEndpoints.changePassword, async ({ ctx, body }) => {
    await changeOwnPassword(ctx, { body, clientAddress: clientAddress(ctx.request.headers, ctx.app.config.trustedProxies) });
  }),
});
