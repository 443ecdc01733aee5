// GET /ext/svc/me – who the caller is

import { handle, route } from "@/lib/http/route";
import { identityEndpoints } from "@/lib/identity/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(identityEndpoints.me, async ({ ctx: { principal } }) => ({
    user_id: principal.userId,
    principal_type: principal.type,
    principal_id: principal.id,
    role: principal.role,
    display_name: principal.displayName,
  })),
});
