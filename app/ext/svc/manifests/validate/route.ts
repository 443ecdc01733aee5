// POST /ext/svc/manifests/validate – check a bank-template manifest without saving it

import { manifestEndpoints } from "@/lib/contracts/templates/endpoints";
import { checkManifest } from "@/lib/contracts/templates/manifest";
import { handle, route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: handle(manifestEndpoints.validate, async ({ body }) => checkManifest(body.manifest)),
});
