// GET, POST /ext/svc/admin/users – list and create users (admin)

import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { handle, route } from "@/lib/http/route";
import { createUser, listUsers } from "@/lib/services/identity/users";

const endpoints = identityEndpoints.users;

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(endpoints.list, ({ ctx, query }) => listUsers(ctx, query)),
  POST: handle(endpoints.create, ({ ctx, body }) => createUser(ctx, body)),
});
