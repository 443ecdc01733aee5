// GET /ext/svc/me – who the caller is

import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { handle, route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(identityEndpoints.me, async ({ ctx: { actor } }) => ({
    user_id: actor.userId,
    principal_type: actor.type,
    principal_id: actor.id,
    role: actor.role,
    display_name: actor.displayName,
  })),
});
