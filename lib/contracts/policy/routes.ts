import { route } from "@/lib/contracts/endpoint";

// Where the bank-policy endpoints are (./endpoints.ts spreads these).

const policy = "/ext/svc/banks/{bank_id}/policy";

export const policyRoutes = {
  get: route("GET", policy),
  put: route("PUT", policy),
  remove: route("DELETE", policy),
  resolve: route("GET", `${policy}/resolve`),
  restore: route("POST", `${policy}/restore`),
};
