// GET, POST /ext/svc/banks – list banks, and create or update a bank from a template

import { bankEndpoints } from "@/lib/contracts/banks/endpoints";
import { handle, route } from "@/lib/http/route";
import { createBankFromTemplate, listBanks } from "@/lib/services/banks/banks";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: handle(bankEndpoints.list, ({ ctx, query }) => listBanks(ctx, { query })),
  // 200 whether or not the bank was created (CONTRACT §15): `bank_created` says which.
  POST: handle(bankEndpoints.create, ({ ctx, body, query }) =>
    createBankFromTemplate(ctx, { body, dryRun: query.dry_run, merge: query.merge }),
  ),
});
