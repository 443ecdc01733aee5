// GET, POST /ext/svc/me/service-accounts – the calling user's service accounts

import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { handle, route } from "@/lib/http/route";
import { createServiceAccount, listServiceAccounts } from "@/lib/services/identity/service-accounts";

const endpoints = identityEndpoints.serviceAccounts;

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(endpoints.list, ({ ctx }) => listServiceAccounts(ctx)),
  POST: handle(endpoints.create, ({ ctx, body }) => createServiceAccount(ctx, body)),
});
