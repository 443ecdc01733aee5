// GET /ext/svc/me – who the caller is

import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { handle, route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(identityEndpoints.me, async ({ ctx: { principal } }) => ({
    user_id: principal.userId,
    principal_type: principal.type,
    principal_id: principal.id,
    role: principal.role,
    display_name: principal.displayName,
  })),
});
