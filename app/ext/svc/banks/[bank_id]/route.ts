// GET, PATCH, DELETE /ext/svc/banks/{bank_id} – one bank with its config, mental models, directives and provenance; rename it or change its config; delete it

import { bankEndpoints } from "@/lib/contracts/banks/endpoints";
import { handle, route } from "@/lib/http/route";
import { deleteBank, getBank, patchBank } from "@/lib/services/banks/banks";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(bankEndpoints.get, ({ ctx, params }) => getBank(ctx, { bankId: params.bank_id })),
  PATCH: handle(bankEndpoints.patch, ({ ctx, params, body }) => patchBank(ctx, { bankId: params.bank_id, body })),
  DELETE: handle(bankEndpoints.remove, ({ ctx, params }) => deleteBank(ctx, { bankId: params.bank_id })),
});
