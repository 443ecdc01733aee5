// POST /ext/svc/me/sessions/sign-out-others – end every console session of the caller but this one
import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { handle, route } from "@/lib/http/route";
import { endOtherSessions } from "@/lib/services/identity/sessions";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: handle(identityEndpoints.mySessions.endOthers, async ({ ctx }) => endOtherSessions(ctx)),
});
