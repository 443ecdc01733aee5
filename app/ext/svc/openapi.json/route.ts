// GET /ext/svc/openapi.json – the OpenAPI 3.1 document of every endpoint (no authentication)
import { buildOpenApiDocument } from "@/lib/contracts/registry/openapi";
import { route } from "@/lib/http/route";

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: async () => {
    document ??= buildOpenApiDocument();
    return Response.json(document);
  },
});
