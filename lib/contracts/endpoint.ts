import type { z } from "zod";
import type { EndpointAuditAction } from "./audit-actions";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call an endpoint. `authenticated`: any active user or service account;
 * `user`: users only (service accounts get 403); `admin`: effective role admin.
 */
export type Access = "public" | "authenticated" | "user" | "admin";

type AnyObject = z.ZodObject<z.ZodRawShape>;

/** The audit entry a successful write records (CONTRACT §14). */
interface AuditSpec {
  /** What was done, area first: `template.install`, `bank.policy.put`; one of lib/contracts/audit-actions.ts. */
  action: EndpointAuditAction;
  /**
   * The resource's path, when it is not the request's own (a create names what it created,
   * an install the template). `{name}` is filled from the path parameters, then the body's
   * top-level fields, then what the write itself reports (the id of a created API key).
   */
  target?: string;
  /** A query flag that makes the call write nothing (`dry_run`): no entry then. */
  unlessQuery?: string;
  /**
   * A write of several resources in one request (a rollout to many banks): one entry per target
   * written, each its own, as a write of that one resource records it; `perTarget(answer)` counts
   * the targets the answer says were written, so a write that recorded fewer still fails.
   */
  perTarget?: (answer: unknown) => number;
}

/**
 * The contract of one endpoint: the single source for request validation, the
 * response shape, the typed console client and the OpenAPI document.
 */
export interface Endpoint<
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: HttpMethod;
  /** OpenAPI-style path, `/ext/svc/me/template-sources/{name}`. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The body may be left out, which reads as `{}` (lib/http/body.ts): a body added to an endpoint
   * that clients already call without one (update's `resolutions`).
   */
  optionalBody?: true;
  /** Absent: the endpoint answers 204 with no body. */
  response?: R;
  /**
   * `ndjson`: the answer is streamed as application/x-ndjson, one `response` per line (an
   * export of every page); absent: one JSON document.
   */
  stream?: "ndjson";
  /** The status of every success (CONTRACT §4 and §15 say which). */
  status: number;
  /** Error statuses worth documenting beyond the ones every endpoint may give. */
  errors?: number[];
  /**
   * A write to one resource that takes preconditions (CONTRACT §19): `If-Match` (412
   * `precondition-failed` unless the resource is at that version, or with `*` exists), and with
   * `if-match-or-create` also `If-None-Match: *` (create only). It answers the resource's new `ETag`.
   */
  conditional?: "if-match" | "if-match-or-create";
  /**
   * Every POST, PUT, PATCH and DELETE names its audit entry; `false` marks a POST that
   * writes nothing (validating a manifest). tests/audit-writes.test.ts holds them to it.
   */
  audit?: AuditSpec | false;
}

/**
 * Where an endpoint is: its method and path, all the console's browser code needs of it. Each
 * area states its routes once, zod-free, in lib/contracts/<area>/routes.ts; its contracts
 * spread them, and the console imports them (gathered in lib/contracts/registry/routes.ts) without
 * pulling in a schema.
 */
export type Route = Readonly<Pick<Endpoint, "method" | "path">>;

export const route = (method: HttpMethod, path: string): Route => ({ method, path });

export function defineEndpoint<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(endpoint: Endpoint<P, Q, B, R>): Endpoint<P, Q, B, R> {
  return endpoint;
}

type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;
// biome-ignore lint/suspicious/noConfusingVoidType: what a handler of a 204 endpoint returns; `void`, not `undefined`, lets it end without a return.
type InputOf<S> = S extends z.ZodType ? z.input<S> : void;

export type EndpointParams<E> = E extends Endpoint<infer P, infer _Q, infer _B, infer _R> ? OutputOf<P> : never;
export type EndpointQuery<E> = E extends Endpoint<infer _P, infer Q, infer _B, infer _R> ? OutputOf<Q> : never;
export type EndpointBody<E> = E extends Endpoint<infer _P, infer _Q, infer B, infer _R> ? OutputOf<B> : never;
export type EndpointResult<E> = E extends Endpoint<infer _P, infer _Q, infer _B, infer R> ? InputOf<R> : never;
