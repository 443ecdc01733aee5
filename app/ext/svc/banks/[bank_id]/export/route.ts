// GET /ext/svc/banks/{bank_id}/export – the bank as a template manifest
import { exportBank } from "@/lib/banks/banks";
import { bankEndpoints } from "@/lib/banks/endpoints";
import { handle, route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(bankEndpoints.export, ({ ctx, params }) => exportBank(ctx.app, ctx.principal, params.bank_id)),
});
