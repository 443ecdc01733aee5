import { route } from "@/lib/contracts/endpoint";

// Where the identity endpoints are (./endpoints.ts spreads these).

/** List, create and revoke API keys under `base`. */
function apiKeyRoutes(base: string) {
  return {
    list: route("GET", base),
    create: route("POST", base),
    revoke: route("DELETE", `${base}/{key_id}`),
  };
}

const serviceAccounts = "/ext/svc/me/service-accounts";
const sessions = "/ext/svc/me/sessions";
const users = "/ext/svc/admin/users";

export const identityRoutes = {
  me: route("GET", "/ext/svc/me"),
  changePassword: route("POST", "/ext/svc/me/password"),
  myApiKeys: apiKeyRoutes("/ext/svc/me/api-keys"),
  mySessions: {
    list: route("GET", sessions),
    end: route("DELETE", `${sessions}/{session_id}`),
    endOthers: route("POST", `${sessions}/sign-out-others`),
  },
  serviceAccounts: {
    list: route("GET", serviceAccounts),
    create: route("POST", serviceAccounts),
    get: route("GET", `${serviceAccounts}/{sa_id}`),
    remove: route("DELETE", `${serviceAccounts}/{sa_id}`),
  },
  serviceAccountApiKeys: apiKeyRoutes(`${serviceAccounts}/{sa_id}/api-keys`),
  users: {
    list: route("GET", users),
    create: route("POST", users),
    get: route("GET", `${users}/{user_id}`),
    update: route("PATCH", `${users}/{user_id}`),
    remove: route("DELETE", `${users}/{user_id}`),
    unlinkSso: route("DELETE", `${users}/{user_id}/sso-identity`),
  },
  userApiKeys: apiKeyRoutes(`${users}/{user_id}/api-keys`),
};
