import type { Endpoint, Route } from "@/lib/contracts/endpoint";
import type { endpoints as contracts } from "@/lib/contracts/registry/endpoints";
import { routes } from "@/lib/contracts/registry/routes";

// The endpoints the console calls, as the browser needs them: method and path only, the
// zod-free routes (lib/contracts/registry/routes.ts) that the server's contracts are built from. The
// contracts' zod schemas stay on the server — the API validates what it receives and what it
// answers, so the browser re-parsing every answer only shipped zod and every schema to every
// page. TypeScript still sees each contract's params, query, body and response through
// `EndpointRoute<E>`, taken from lib/contracts/registry/endpoints.ts by a type-only import; a group or
// endpoint the routes lack fails to compile, and tests/client-endpoints.test.ts checks the rest.

declare const contractType: unique symbol;

/** One endpoint as the console holds it at run time; `E` is its server contract, for types only. */
export interface EndpointRoute<E extends Endpoint = Endpoint> extends Route {
  /** Never set: carries the contract's types to `api.call` and the query hooks. */
  readonly [contractType]?: E;
}

/** The contract an `EndpointRoute` stands for. */
export type ContractOf<R> = R extends EndpointRoute<infer E> ? E : never;

/** The contracts' groups with every endpoint replaced by its route. */
type RoutesOf<G> = G extends Endpoint ? EndpointRoute<G> : { readonly [K in keyof G]: RoutesOf<G[K]> };

export type ClientEndpoints = RoutesOf<typeof contracts>;

/** Every endpoint the server serves, grouped as in lib/contracts/registry/endpoints.ts. */
export const endpoints: ClientEndpoints = routes;
