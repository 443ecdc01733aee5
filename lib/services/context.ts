import "server-only";
import type { Database, DatabaseHandle } from "@/db/client";
import type { AuditTargetType, EndpointAuditAction } from "@/lib/contracts/audit-actions";
import type { Role } from "@/lib/contracts/fields";
import type { ResolveHost } from "@/lib/platform/address";
import type { Config } from "@/lib/platform/config";

/** What the calls of a process share besides its database: a verb sees these as `ctx.app`. */
interface AppSettings {
  config: Config;
  secretKey: Buffer;
  /**
   * Resolves a host name to its IP addresses for outgoing marketplace requests.
   * Unset: the system resolver. Tests map made-up names to chosen addresses.
   */
  resolveHost?: ResolveHost;
}

/** Everything the services need beyond one call: built once per process (lib/server/app.ts), or by a test. */
export interface AppContext extends AppSettings {
  db: Database;
  database: DatabaseHandle;
}

export type { Role };

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

/** The actor of a request: a user or a service account, authenticated by its API key or console session. */
export type AuthenticatedActor = Actor & { type: "user" | "service_account" };

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

/** The audit of a call that writes nothing worth an entry (a read, a dry run, a scheduled check): records nothing. */
export const silentAudit: Audit = {
  record: async () => {},
  using: () => silentAudit,
};

/**
 * What a conditional write asks of the one resource it writes (CONTRACT §19: If-Match,
 * If-None-Match: *), checked holding it (lib/services/preconditions.ts).
 */
export interface WritePrecondition {
  /** Whether it was checked already. */
  readonly done: boolean;
  /** Throws `precondition-failed` unless `current` (the resource as GET answers it, null when none) is as asked. */
  check(current: unknown): void;
}

/**
 * The one context every service takes first: `verb(ctx, input)`. `signal` fires when the caller
 * went away.
 */
export interface ServiceContext {
  /** The settings only: a verb reaches the database through `db` (or, where it must, `rootDb`). */
  app: AppSettings;
  /** What the verb reads and writes through: the database, or inside withTransaction the transaction. */
  db: Database;
  /**
   * The database itself, never a transaction, also inside withTransaction: only for writes that
   * must stand whatever becomes of the call's transaction. Those are what a marketplace fetch
   * learned (the marketplace cache every call shares, a source's catalog status), which holds
   * even when the call then fails.
   */
  rootDb: Database;
  actor: Actor;
  requestId: string;
  /**
   * When the call began (ms since the epoch). A marketplace answer received after it is as fresh
   * as the call can ask for: calls that overlap share one conditional request (CONTRACT §12).
   */
  startedAt: number;
  signal: AbortSignal;
  audit: Audit;
  /** What a conditional write asks of the resource it writes (If-Match, If-None-Match: *); absent: nothing. */
  precondition?: WritePrecondition;
}

/**
 * The context of one call in `app`, outside any transaction: `db` and `rootDb` are the app's
 * database, `app` carries its settings and not the database.
 */
export function callContext<A extends Actor>(
  app: AppContext,
  call: { actor: A; requestId: string; startedAt?: number; signal: AbortSignal; audit: Audit; precondition?: WritePrecondition },
): ServiceContext & { actor: A } {
  const settings: AppSettings = { config: app.config, secretKey: app.secretKey, resolveHost: app.resolveHost };
  return { app: settings, db: app.db, rootDb: app.db, startedAt: Date.now(), ...call };
}

/** Runs `fn` in one transaction, with a context whose `db` and `audit` write in it (`rootDb` stays the database). */
export function withTransaction<T>(ctx: ServiceContext, fn: (tx: ServiceContext) => Promise<T>): Promise<T> {
  return ctx.db.transaction((transaction) => fn({ ...ctx, db: transaction, audit: ctx.audit.using(transaction) }));
}
