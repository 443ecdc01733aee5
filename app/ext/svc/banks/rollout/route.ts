// POST /ext/svc/banks/rollout – apply a template's current content to several banks, each as POST /banks would

import { bankEndpoints } from "@/lib/contracts/banks/endpoints";
import { handle, route } from "@/lib/http/route";
import { rolloutTemplate } from "@/lib/services/banks/rollout";

export const { GET, POST, PUT, PATCH, DELETE } = route({
  // 200 whatever each bank's outcome: one bank's failure is its own `problem` (CONTRACT §16).
  POST: handle(bankEndpoints.rollout, ({ ctx, body, query }) => rolloutTemplate(ctx, { body, dryRun: query.dry_run })),
});
