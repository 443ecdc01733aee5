// GET /ext/svc/banks/{bank_id}/history – the templates applied to a bank, newest first
import { bankHistory } from "@/lib/banks/banks";
import { bankEndpoints } from "@/lib/banks/endpoints";
import { handle, route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(bankEndpoints.history, ({ ctx, params }) => bankHistory(ctx.app, ctx.principal, params.bank_id)),
});
