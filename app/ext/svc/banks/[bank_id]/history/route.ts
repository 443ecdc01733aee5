// GET /ext/svc/banks/{bank_id}/history – the templates applied to a bank, newest first

import { bankEndpoints } from "@/lib/contracts/banks/endpoints";
import { handle, route } from "@/lib/http/route";
import { bankHistory } from "@/lib/services/banks/banks";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(bankEndpoints.history, ({ ctx, params }) => bankHistory(ctx, { bankId: params.bank_id })),
});
