import { policyEndpoints } from "@/lib/contracts/policy/endpoints";
import { handle, route } from "@/lib/http/route";
import { deletePolicy, getPolicy, putPolicy, resolveBankPolicy, restorePolicy } from "@/lib/services/policy/policy";

// Each service checks permission first: it depends on the bank id, so the endpoint-level
// access ("authenticated") cannot express it.

export function policyRoute() {
  return route({
    GET: handle(policyEndpoints.get, ({ ctx, params }) => getPolicy(ctx, { bankId: params.bank_id })),
    PUT: handle(policyEndpoints.put, ({ ctx, params, body }) => putPolicy(ctx, { bankId: params.bank_id, document: body.document })),
    DELETE: handle(policyEndpoints.remove, ({ ctx, params }) => deletePolicy(ctx, { bankId: params.bank_id })),
  });
}

export function policyResolveRoute() {
  return route({
    GET: handle(policyEndpoints.resolve, ({ ctx, params, query }) => resolveBankPolicy(ctx, { bankId: params.bank_id, context: query })),
  });
}

export function policyRestoreRoute() {
  return route({
    POST: handle(policyEndpoints.restore, ({ ctx, params, body }) => restorePolicy(ctx, { bankId: params.bank_id, entry: body.entry })),
  });
}
