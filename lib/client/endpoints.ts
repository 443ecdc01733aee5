import type { Endpoint, HttpMethod } from "@/lib/contracts/endpoint";
import type { endpoints as contracts } from "@/lib/contracts/endpoints";

// The endpoints the console calls, as the browser needs them: method and path only. The
// contracts' zod schemas stay on the server — the API validates what it receives and what it
// answers, so the browser re-parsing every answer only shipped zod and every schema to every
// page. TypeScript still sees each contract's params, query, body and response through
// `EndpointRoute<E>`, taken from lib/contracts/endpoints.ts by a type-only import.
// tests/client-endpoints.test.ts fails when this table and the server's contracts part.

declare const contractType: unique symbol;

/** One endpoint as the console holds it at run time; `E` is its server contract, for types only. */
export interface EndpointRoute<E extends Endpoint = Endpoint> {
  readonly method: HttpMethod;
  /** OpenAPI-style path, `/ext/svc/me/template-sources/{name}`. */
  readonly path: string;
  /** Never set: carries the contract's types to `api.call` and the query hooks. */
  readonly [contractType]?: E;
}

/** The contract an `EndpointRoute` stands for. */
export type ContractOf<R> = R extends EndpointRoute<infer E> ? E : never;

/** The contracts' groups with every endpoint replaced by its route. */
type RoutesOf<G> = G extends Endpoint ? EndpointRoute<G> : { readonly [K in keyof G]: RoutesOf<G[K]> };

export type ClientEndpoints = RoutesOf<typeof contracts>;

// `never` as the contract: a route fits whichever contract the table's type puts it under;
// that the method and path are that contract's is the test's to check.
function route(method: HttpMethod, path: string): EndpointRoute<never> {
  return { method, path };
}

/** Every endpoint the server serves, grouped as in lib/contracts/endpoints.ts. */
export const endpoints: ClientEndpoints = {
  identity: {
    me: route("GET", "/ext/svc/me"),
    changePassword: route("POST", "/ext/svc/me/password"),
    myApiKeys: {
      list: route("GET", "/ext/svc/me/api-keys"),
      create: route("POST", "/ext/svc/me/api-keys"),
      revoke: route("DELETE", "/ext/svc/me/api-keys/{key_id}"),
    },
    serviceAccounts: {
      list: route("GET", "/ext/svc/me/service-accounts"),
      create: route("POST", "/ext/svc/me/service-accounts"),
      remove: route("DELETE", "/ext/svc/me/service-accounts/{sa_id}"),
    },
    serviceAccountApiKeys: {
      list: route("GET", "/ext/svc/me/service-accounts/{sa_id}/api-keys"),
      create: route("POST", "/ext/svc/me/service-accounts/{sa_id}/api-keys"),
      revoke: route("DELETE", "/ext/svc/me/service-accounts/{sa_id}/api-keys/{key_id}"),
    },
    users: {
      list: route("GET", "/ext/svc/admin/users"),
      create: route("POST", "/ext/svc/admin/users"),
      get: route("GET", "/ext/svc/admin/users/{user_id}"),
      update: route("PATCH", "/ext/svc/admin/users/{user_id}"),
      remove: route("DELETE", "/ext/svc/admin/users/{user_id}"),
    },
    userApiKeys: {
      list: route("GET", "/ext/svc/admin/users/{user_id}/api-keys"),
      create: route("POST", "/ext/svc/admin/users/{user_id}/api-keys"),
      revoke: route("DELETE", "/ext/svc/admin/users/{user_id}/api-keys/{key_id}"),
    },
  },
  sources: {
    personal: {
      list: route("GET", "/ext/svc/me/template-sources"),
      create: route("POST", "/ext/svc/me/template-sources"),
      remove: route("DELETE", "/ext/svc/me/template-sources/{name}"),
      catalog: route("GET", "/ext/svc/me/template-sources/{name}/catalog"),
    },
    server: {
      list: route("GET", "/ext/svc/admin/template-sources"),
      create: route("POST", "/ext/svc/admin/template-sources"),
      remove: route("DELETE", "/ext/svc/admin/template-sources/{name}"),
      catalog: route("GET", "/ext/svc/admin/template-sources/{name}/catalog"),
    },
  },
  availableSources: {
    list: route("GET", "/ext/svc/template-sources"),
  },
  templates: {
    personal: {
      list: route("GET", "/ext/svc/me/templates"),
      create: route("POST", "/ext/svc/me/templates"),
      get: route("GET", "/ext/svc/me/templates/{template_id}"),
      patch: route("PATCH", "/ext/svc/me/templates/{template_id}"),
      remove: route("DELETE", "/ext/svc/me/templates/{template_id}"),
      install: route("POST", "/ext/svc/me/templates/{template_id}/install"),
      update: route("POST", "/ext/svc/me/templates/{template_id}/update"),
      checkUpdate: route("GET", "/ext/svc/me/templates/{template_id}/check-update"),
      previewUpdate: route("GET", "/ext/svc/me/templates/{template_id}/update-preview"),
    },
    server: {
      list: route("GET", "/ext/svc/admin/templates"),
      create: route("POST", "/ext/svc/admin/templates"),
      get: route("GET", "/ext/svc/admin/templates/{template_id}"),
      patch: route("PATCH", "/ext/svc/admin/templates/{template_id}"),
      remove: route("DELETE", "/ext/svc/admin/templates/{template_id}"),
      install: route("POST", "/ext/svc/admin/templates/{template_id}/install"),
      update: route("POST", "/ext/svc/admin/templates/{template_id}/update"),
      checkUpdate: route("GET", "/ext/svc/admin/templates/{template_id}/check-update"),
      previewUpdate: route("GET", "/ext/svc/admin/templates/{template_id}/update-preview"),
    },
  },
  usableTemplates: {
    list: route("GET", "/ext/svc/templates"),
    get: route("GET", "/ext/svc/templates/{scope}/{template_id}"),
  },
  templateLifecycle: {
    personal: {
      versions: route("GET", "/ext/svc/me/templates/{template_id}/versions"),
      version: route("GET", "/ext/svc/me/templates/{template_id}/versions/{version}"),
      rollback: route("POST", "/ext/svc/me/templates/{template_id}/rollback"),
      checkUpdates: route("POST", "/ext/svc/me/templates/check-updates"),
      updateAll: route("POST", "/ext/svc/me/templates/update-all"),
    },
    server: {
      versions: route("GET", "/ext/svc/admin/templates/{template_id}/versions"),
      version: route("GET", "/ext/svc/admin/templates/{template_id}/versions/{version}"),
      rollback: route("POST", "/ext/svc/admin/templates/{template_id}/rollback"),
      checkUpdates: route("POST", "/ext/svc/admin/templates/check-updates"),
      updateAll: route("POST", "/ext/svc/admin/templates/update-all"),
    },
  },
  manifests: {
    validate: route("POST", "/ext/svc/manifests/validate"),
  },
  policy: {
    get: route("GET", "/ext/svc/banks/{bank_id}/policy"),
    put: route("PUT", "/ext/svc/banks/{bank_id}/policy"),
    remove: route("DELETE", "/ext/svc/banks/{bank_id}/policy"),
    resolve: route("GET", "/ext/svc/banks/{bank_id}/policy/resolve"),
  },
  banks: {
    create: route("POST", "/ext/svc/banks"),
    list: route("GET", "/ext/svc/banks"),
    get: route("GET", "/ext/svc/banks/{bank_id}"),
    history: route("GET", "/ext/svc/banks/{bank_id}/history"),
    export: route("GET", "/ext/svc/banks/{bank_id}/export"),
    remove: route("DELETE", "/ext/svc/banks/{bank_id}"),
  },
  audit: {
    list: route("GET", "/ext/svc/admin/audit"),
    export: route("GET", "/ext/svc/admin/audit/export"),
  },
};
