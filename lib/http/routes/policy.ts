import { policyEndpoints } from "@/lib/contracts/policy/endpoints";
import { handle, route } from "@/lib/http/route";
import { assertMayManageBank } from "@/lib/services/banks/access";
import { deletePolicy, getPolicy, loadPolicyDocument, putPolicy, resolvePolicy } from "@/lib/services/policy/policy";

// Every handler checks permission first: it depends on the bank id, so the endpoint-level
// access ("principal") cannot express it. Writes check and write in one transaction that
// holds the bank, so an owner's permission cannot lapse between the check and the write.

export function policyRoute() {
  return route({
    GET: handle(policyEndpoints.get, async ({ ctx, params }) => {
      await assertMayManageBank(ctx.app.db, ctx.principal, params.bank_id);
      return getPolicy(ctx.app.db, params.bank_id);
    }),
    PUT: handle(policyEndpoints.put, ({ ctx, params, body }) =>
      ctx.app.db.transaction(async (tx) => {
        await assertMayManageBank(tx, ctx.principal, params.bank_id, true);
        return putPolicy(tx, params.bank_id, body.document);
      }),
    ),
    DELETE: handle(policyEndpoints.remove, ({ ctx, params }) =>
      ctx.app.db.transaction(async (tx) => {
        await assertMayManageBank(tx, ctx.principal, params.bank_id, true);
        await deletePolicy(tx, params.bank_id);
      }),
    ),
  });
}

export function policyResolveRoute() {
  return route({
    GET: handle(policyEndpoints.resolve, async ({ ctx, params, query }) => {
      await assertMayManageBank(ctx.app.db, ctx.principal, params.bank_id);
      return resolvePolicy(await loadPolicyDocument(ctx.app.db, params.bank_id), query);
    }),
  });
}
