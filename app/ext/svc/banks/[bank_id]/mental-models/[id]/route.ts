// PUT, DELETE /ext/svc/banks/{bank_id}/mental-models/{id} – put one mental model of a bank whole, or remove it

import { bankEndpoints } from "@/lib/contracts/banks/endpoints";
import { handle, route } from "@/lib/http/route";
import { editMentalModel } from "@/lib/services/banks/banks";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  PUT: handle(bankEndpoints.putMentalModel, ({ ctx, params, body }) =>
    editMentalModel(ctx, { bankId: params.bank_id, key: params.id, body }),
  ),
  DELETE: handle(bankEndpoints.removeMentalModel, ({ ctx, params }) => editMentalModel(ctx, { bankId: params.bank_id, key: params.id })),
});
