// GET /ext/svc/banks/{bank_id} – one bank with its config, mental models, directives and provenance
import { bankEndpoints } from "@/lib/banks/endpoints";
import { getBank } from "@/lib/banks/banks";
import { handle, route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(bankEndpoints.get, ({ ctx, params }) => getBank(ctx.app, ctx.principal, params.bank_id)),
});
