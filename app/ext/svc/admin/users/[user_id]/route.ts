// GET, PATCH, DELETE /ext/svc/admin/users/{user_id} – read, change or delete a user (admin)

import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { handle, route } from "@/lib/http/route";
import { deleteUser, getUser, updateUser } from "@/lib/services/identity/users";

const endpoints = identityEndpoints.users;

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(endpoints.get, ({ ctx, params }) => getUser(ctx, { id: params.user_id })),
  PATCH: handle(endpoints.update, ({ ctx, params, body }) => updateUser(ctx, { id: params.user_id, patch: body })),
  DELETE: handle(endpoints.remove, ({ ctx, params }) => deleteUser(ctx, { id: params.user_id })),
});
