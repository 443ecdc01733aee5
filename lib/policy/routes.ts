import { assertMayManageBank } from "@/lib/banks/access";
import { handle, route } from "@/lib/http/route";
import { policyEndpoints } from "./endpoints";
import { deletePolicy, getPolicy, loadPolicyDocument, putPolicy, resolvePolicy } from "./policy";

// Every handler checks permission first: it depends on the bank id, so the endpoint-level
// access ("principal") cannot express it.

export function policyRoute() {
  return route({
    GET: handle(policyEndpoints.get, async ({ ctx, params }) => {
      await assertMayManageBank(ctx.app, ctx.principal, params.bank_id);
      return getPolicy(ctx.app.db, params.bank_id);
    }),
    PUT: handle(policyEndpoints.put, async ({ ctx, params, body }) => {
      await assertMayManageBank(ctx.app, ctx.principal, params.bank_id);
      return putPolicy(ctx.app.db, params.bank_id, body.document);
    }),
    DELETE: handle(policyEndpoints.remove, async ({ ctx, params }) => {
      await assertMayManageBank(ctx.app, ctx.principal, params.bank_id);
      await deletePolicy(ctx.app.db, params.bank_id);
    }),
  });
}

export function policyResolveRoute() {
  return route({
    GET: handle(policyEndpoints.resolve, async ({ ctx, params, query }) => {
      await assertMayManageBank(ctx.app, ctx.principal, params.bank_id);
      return resolvePolicy(await loadPolicyDocument(ctx.app.db, params.bank_id), query);
    }),
  });
}
