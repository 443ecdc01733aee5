// GET, POST /ext/svc/admin/users – list and create users (admin)

import { handle, route } from "@/lib/http/route";
import { identityEndpoints } from "@/lib/identity/endpoints";
import { createUser, listUsers } from "@/lib/identity/users";

const endpoints = identityEndpoints.users;

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(endpoints.list, ({ ctx }) => listUsers(ctx.app.db)),
  POST: handle(endpoints.create, ({ ctx, body }) => createUser(ctx.app.db, body)),
});
