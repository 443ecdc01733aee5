// GET /ext/svc/template-sources – every source the caller can install from (personal and server)
import { handle, route } from "@/lib/http/route";
import { availableSourceEndpoints } from "@/lib/sources/endpoints";
import { listAvailableSources } from "@/lib/sources/sources";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(availableSourceEndpoints.list, ({ ctx }) => listAvailableSources(ctx.app.db, ctx.principal.userId)),
});
