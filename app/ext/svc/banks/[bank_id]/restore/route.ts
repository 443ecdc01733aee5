// POST /ext/svc/banks/{bank_id}/restore – put back the bank's content as it was right after an entry of its history

import { bankEndpoints } from "@/lib/contracts/banks/endpoints";
import { handle, route } from "@/lib/http/route";
import { restoreBank } from "@/lib/services/banks/banks";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: handle(bankEndpoints.restore, ({ ctx, params, body, query }) =>
    restoreBank(ctx, { bankId: params.bank_id, body, dryRun: query.dry_run }),
  ),
});
