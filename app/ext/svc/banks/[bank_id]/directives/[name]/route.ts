// PUT, DELETE /ext/svc/banks/{bank_id}/directives/{name} – put one directive of a bank whole, or remove it

import { bankEndpoints } from "@/lib/contracts/banks/endpoints";
import { handle, route } from "@/lib/http/route";
import { editDirective } from "@/lib/services/banks/banks";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  PUT: handle(bankEndpoints.putDirective, ({ ctx, params, body }) =>
    editDirective(ctx, { bankId: params.bank_id, key: params.name, body }),
  ),
  DELETE: handle(bankEndpoints.removeDirective, ({ ctx, params }) => editDirective(ctx, { bankId: params.bank_id, key: params.name })),
});
