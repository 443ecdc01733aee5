// GET /ext/svc/me/sessions – the calling user's live console sessions
import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { handle, route } from "@/lib/http/route";
import { listSessions } from "@/lib/services/identity/sessions";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(identityEndpoints.mySessions.list, async ({ ctx }) => listSessions(ctx)),
});
