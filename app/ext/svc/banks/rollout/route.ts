// POST /ext/svc/banks/rollout – apply a template's current content to several banks, each as POST /banks would
// (GET, PATCH and DELETE: the bank whose id is "rollout", which this static path would otherwise hide)

import { bankEndpoints } from "@/lib/contracts/banks/endpoints";
import { handle, type RouteHandler, route } from "@/lib/http/route";
import { rolloutTemplate } from "@/lib/services/banks/rollout";
import { DELETE as deleteBank, GET as getBank, PATCH as patchBank } from "../[bank_id]/route";

/** `rollout` is a valid bank id: its own GET, PATCH and DELETE are those of /banks/{bank_id}, with that id. */
const bankNamedRollout =
  (handler: RouteHandler): RouteHandler =>
  (request) =>
    handler(request, { params: Promise.resolve({ bank_id: "rollout" }) });

export const { GET, POST, PUT, PATCH, DELETE } = route({
  // 200 whatever each bank's outcome: one bank's failure is its own `problem` (CONTRACT §16).
  POST: handle(bankEndpoints.rollout, ({ ctx, body, query }) => rolloutTemplate(ctx, { body, dryRun: query.dry_run })),
  GET: bankNamedRollout(getBank),
  PATCH: bankNamedRollout(patchBank),
  DELETE: bankNamedRollout(deleteBank),
});
