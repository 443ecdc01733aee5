import { route } from "@/lib/contracts/endpoint";

// Where the bank endpoints are (./endpoints.ts spreads these).

const bank = "/ext/svc/banks/{bank_id}";

export const bankRoutes = {
  create: route("POST", "/ext/svc/banks"),
  list: route("GET", "/ext/svc/banks"),
  rollout: route("POST", "/ext/svc/banks/rollout"),
  get: route("GET", bank),
  history: route("GET", `${bank}/history`),
  export: route("GET", `${bank}/export`),
  remove: route("DELETE", bank),
  restore: route("POST", `${bank}/restore`),
  patch: route("PATCH", bank),
  putMentalModel: route("PUT", `${bank}/mental-models/{id}`),
  removeMentalModel: route("DELETE", `${bank}/mental-models/{id}`),
  putDirective: route("PUT", `${bank}/directives/{name}`),
  removeDirective: route("DELETE", `${bank}/directives/{name}`),
};
