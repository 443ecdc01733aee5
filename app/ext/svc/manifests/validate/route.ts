// POST /ext/svc/manifests/validate – check a bank-template manifest without saving it
import { handle, route } from "@/lib/http/route";
import { checkManifest } from "@/lib/templates/manifest";
import { manifestEndpoints } from "@/lib/templates/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: handle(manifestEndpoints.validate, async ({ body }) => checkManifest(body.manifest)),
});
