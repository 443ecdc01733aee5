import { defineEndpoint } from "@/lib/contracts/endpoint";
import { policyRoutes } from "./routes";
import {
  BankPolicy,
  bankPolicyParams,
  PutPolicyRequest,
  ResolvedPolicy,
  ResolveQuery,
  RestoredPolicy,
  RestorePolicyRequest,
} from "./schemas";

const tag = "Bank policy";
// Endpoint level admits any authenticated caller; each handler then requires an admin or the bank's owner (CONTRACT §3).
const access = "authenticated";
const who = "admin, or the owner of an existing bank";

export const policyEndpoints = {
  get: defineEndpoint({
    ...policyRoutes.get,
    tag,
    access,
    status: 200,
    params: bankPolicyParams,
    response: BankPolicy,
    errors: [403, 404],
    summary: `Read a bank's policy document (${who})`,
  }),
  put: defineEndpoint({
    ...policyRoutes.put,
    tag,
    access,
    status: 200,
    params: bankPolicyParams,
    body: PutPolicyRequest,
    response: BankPolicy,
    errors: [403],
    audit: { action: "bank.policy.put" },
    conditional: "if-match-or-create",
    summary: `Create or replace a bank's policy document; an admin may set one before the bank exists (${who})`,
  }),
  remove: defineEndpoint({
    ...policyRoutes.remove,
    tag,
    access,
    status: 204,
    params: bankPolicyParams,
    errors: [403, 404],
    audit: { action: "bank.policy.delete" },
    conditional: "if-match",
    summary: `Delete a bank's policy document (${who})`,
  }),
  resolve: defineEndpoint({
    ...policyRoutes.resolve,
    tag,
    access,
    status: 200,
    params: bankPolicyParams,
    query: ResolveQuery,
    response: ResolvedPolicy,
    errors: [403, 404],
    summary: `Resolve the strategy and public access that apply for a provider, channel and topic (${who})`,
  }),
  restore: defineEndpoint({
    ...policyRoutes.restore,
    tag,
    access,
    status: 200,
    params: bankPolicyParams,
    body: RestorePolicyRequest,
    response: RestoredPolicy,
    errors: [403, 404, 409],
    audit: { action: "bank.policy.restore", target: policyRoutes.get.path },
    conditional: "if-match",
    summary:
      `Put back the policy a \`policy\` entry of the bank's history left: its \`after\` document is stored as PUT would, or, ` +
      "when it is null, the policy is deleted as DELETE would (nothing to do when there is none). Always 200 with the resulting " +
      "policy, `document` null when the bank has none. 404 for an id that is not a policy entry of this bank; 409 " +
      `(\`stale-policy-document\`) when the entry's document no longer validates as a policy document (${who})`,
  }),
};
