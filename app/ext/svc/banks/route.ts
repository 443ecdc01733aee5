// GET, POST /ext/svc/banks – list banks, and create or update a bank from a template

import { createBankFromTemplate, listBanks } from "@/lib/banks/banks";
import { bankEndpoints } from "@/lib/banks/endpoints";
import { handle, route, WithStatus } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(bankEndpoints.list, ({ ctx }) => listBanks(ctx.app, ctx.principal)),
  POST: handle(bankEndpoints.create, async ({ ctx, body, query }) => {
    const result = await createBankFromTemplate(ctx.app, ctx.principal, body, query.dry_run);
    // 201 only when this call created the bank; an update or a dry run is 200.
    return new WithStatus(result.bank_created ? 201 : 200, result);
  }),
});
