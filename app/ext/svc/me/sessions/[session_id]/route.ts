// DELETE /ext/svc/me/sessions/{session_id} – end one of the calling user's console sessions
import { identityEndpoints } from "@/lib/contracts/identity/endpoints";
import { handle, route } from "@/lib/http/route";
import { endSession } from "@/lib/services/identity/sessions";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  DELETE: handle(identityEndpoints.mySessions.end, async ({ ctx, params }) => {
    await endSession(ctx, { sessionId: params.session_id });
  }),
});
