// GET /ext/svc/banks/{bank_id}/export – the bank as a template manifest

import { bankEndpoints } from "@/lib/contracts/banks/endpoints";
import { handle, route } from "@/lib/http/route";
import { exportBank } from "@/lib/services/banks/banks";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(bankEndpoints.export, ({ ctx, params }) => exportBank(ctx, { bankId: params.bank_id })),
});
