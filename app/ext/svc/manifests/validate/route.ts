// POST /ext/svc/manifests/validate – check a bank-template manifest without saving it
import { handle, route } from "@/lib/http/route";
import { manifestEndpoints } from "@/lib/templates/endpoints";
import { checkManifest } from "@/lib/templates/manifest";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: handle(manifestEndpoints.validate, async ({ body }) => checkManifest(body.manifest)),
});
