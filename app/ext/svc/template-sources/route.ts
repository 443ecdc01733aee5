// GET /ext/svc/template-sources – every source the caller can install from (personal and server)

import { availableSourceEndpoints } from "@/lib/contracts/sources/endpoints";
import { handle, route } from "@/lib/http/route";
import { listAvailableSources } from "@/lib/services/sources/sources";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(availableSourceEndpoints.list, ({ ctx }) => listAvailableSources(ctx)),
});
