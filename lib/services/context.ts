import "server-only";
import type { Database, DatabaseHandle } from "@/db/client";
import type { AuditTargetType, EndpointAuditAction } from "@/lib/contracts/audit/actions";
import type { ResolveHost } from "@/lib/platform/address";
import type { Config } from "@/lib/platform/config";

/** Everything the services need beyond one call: built once per process (lib/server/app.ts), or by a test. */
export interface AppContext {
  config: Config;
  db: Database;
  database: DatabaseHandle;
  secretKey: Buffer;
  /**
   * Resolves a host name to its IP addresses for outgoing marketplace requests.
   * Unset: the system resolver. Tests map made-up names to chosen addresses.
   */
  resolveHost?: ResolveHost;
}

export type Role = "admin" | "member";

/**
 * Who does something: the one type for it. A user, or a service account acting for its owner
 * (`userId` is then the owner's id, API.md §5.2), with the role it acts with.
 */
export interface Actor {
  /** `system`: the process itself (scheduled jobs), whose writes are not audited. */
  type: "user" | "service_account" | "system";
  id: string;
  userId: string;
  role: Role;
  displayName: string;
  /** The console session (console_sessions.id) the actor came with; absent for API keys. */
  sessionId?: string;
}

/** The actor of the scheduled jobs: the process itself, acting for no user. */
export const SCHEDULER: Actor = { type: "system", id: "scheduler", userId: "scheduler", role: "admin", displayName: "Scheduled job" };

/** An authenticated caller: a user or a service account. */
export type Principal = Actor & { type: "user" | "service_account" };

/** One write, as its audit entry records it (CONTRACT §14, §17). */
export interface AuditRecord {
  /**
   * What was done, area first (`template.install`): one of the list the contracts declare theirs
   * from, so it compiles only if listed; the journal checks it is the one this endpoint declares.
   */
  action: EndpointAuditAction;
  /** The id as the API names it: for an install, the installed id. */
  target: { type: AuditTargetType; id: string };
  /** The resource as the API answers it before the write (null for a creation), and after (null for a deletion). */
  before: unknown;
  after: unknown;
}

/** The audit journal of one call: records its entry with the context's database (or transaction). */
export interface Audit {
  record(entry: AuditRecord): Promise<void>;
  /** The same journal, writing with `db`: withTransaction binds it to the transaction. */
  using(db: Database): Audit;
}

/**
 * The one context every service takes first: `verb(ctx, input)`. `db` is the database, or the
 * transaction of withTransaction; `signal` fires when the caller went away.
 */
export interface ServiceContext {
  app: AppContext;
  db: Database;
  actor: Actor;
  requestId: string;
  signal: AbortSignal;
  audit: Audit;
}

/** Runs `fn` in one transaction, with a context whose `db` and `audit` write in it. */
export function withTransaction<T>(ctx: ServiceContext, fn: (tx: ServiceContext) => Promise<T>): Promise<T> {
  return ctx.db.transaction((tx) => fn({ ...ctx, db: tx, audit: ctx.audit.using(tx) }));
}
