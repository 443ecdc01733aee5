import "server-only";
import { randomUUID } from "node:crypto";
import type { Database } from "@/db/client";
import { auditEntries } from "@/db/schema";
import type { AuditTargetType, EndpointAuditAction, SessionAuditAction, SsoAuditAction } from "@/lib/contracts/audit-actions";
import type { Endpoint } from "@/lib/contracts/endpoint";
import { logError } from "@/lib/platform/log";
import type { Audit, AuditRecord, AuthenticatedActor } from "@/lib/services/context";
import { recordEntryEvents } from "./entry-events";
import { presentEntry } from "./log";
import { withoutSecrets } from "./redact";

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/**
 * The path an entry names (`target`): the endpoint's audit target (or its own path) with its
 * `{name}`s filled. The last one names the resource written, so it is the recorded target's id
 * (for an install under `alias_id`, the installed id); the others come from the path parameters.
 */
function targetPath(template: string, params: Record<string, unknown>, targetId: string | null): string {
  const names = [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!);
  const last = names.at(-1);
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = name === last && targetId !== null ? targetId : params[name];
    return typeof value === "string" ? encodeURIComponent(value) : whole;
  });
}

/**
 * The audit journal of one write request (CONTRACT §14, §17): the endpoint declares the action,
 * the service records the entry inside its write's transaction (`ctx.audit.record`), so the
 * entry commits or rolls back with the write; a request records exactly one (its id is fixed,
 * so recording it again is a no-op) — or, for an endpoint that writes several targets
 * (`perTarget`), one per target, each with an id fixed for that target. Every entry written here
 * (the sign-ins' below too) records its webhook events in its own transaction (./entry-events.ts).
 */
export class AuditJournal {
  readonly id = randomUUID();
  recorded = false;
  /** With `perTarget`: the entry id of each target recorded so far. */
  private readonly targetEntryIds = new Map<string, string>();
  /** The endpoint's count of the targets a request wrote, when it writes several (`perTarget`). */
  readonly perTarget: ((answer: unknown) => number) | undefined;

  constructor(
    private readonly endpoint: Endpoint,
    private readonly action: EndpointAuditAction,
    private readonly actor: AuthenticatedActor,
    private readonly requestId: string,
    private readonly params: Record<string, unknown>,
    private readonly body: Record<string, unknown>,
  ) {
    this.perTarget = endpoint.audit ? endpoint.audit.perTarget : undefined;
  }

  /** How many targets recorded their entry (a journal of one entry: 0 or 1). */
  get recordedTargets(): number {
    return this.perTarget ? this.targetEntryIds.size : Number(this.recorded);
  }

  private entryId(targetId: string): string {
    if (!this.perTarget) return this.id;
    let id = this.targetEntryIds.get(targetId);
    if (!id) {
      id = randomUUID();
      this.targetEntryIds.set(targetId, id);
    }
    return id;
  }

  private get targetTemplate(): string {
    const spec = this.endpoint.audit;
    return (spec ? spec.target : undefined) ?? this.endpoint.path;
  }

  /**
   * The entry of a write whose service recorded none (a bug, settleJournal): what the request
   * itself says, without target type, id, before or after.
   */
  async recordFromRequest(db: Database): Promise<void> {
    const target = this.targetTemplate.replace(PLACEHOLDER, (whole, name: string) => {
      for (const source of [this.params, this.body]) {
        const value = source[name];
        if (typeof value === "string") return encodeURIComponent(value);
      }
      return whole;
    });
    await this.insert(db, this.id, target, null);
  }

  using(db: Database): Audit {
    return { record: (entry) => this.write(db, entry), using: (other) => this.using(other) };
  }

  private async write(db: Database, entry: AuditRecord): Promise<void> {
    if (entry.action !== this.action) {
      throw new Error(`${this.endpoint.method} ${this.endpoint.path} declares ${this.action} but recorded ${entry.action}.`);
    }
    await this.insert(db, this.entryId(entry.target.id), targetPath(this.targetTemplate, this.params, entry.target.id), entry);
  }

  /** Inserts an entry (its id is fixed per request or target: a second insert is a no-op) and records its events. */
  private async insert(db: Database, id: string, target: string, entry: AuditRecord | null): Promise<void> {
    if (/\{[a-z_]+\}/.test(target)) throw new Error(`The audit target ${target} of ${this.action} was not filled in.`);
    const [inserted] = await db
      .insert(auditEntries)
      .values({
        id,
        actorType: this.actor.type,
        actorId: this.actor.id,
        userId: this.actor.userId,
        action: this.action,
        target,
        ...(entry && {
          targetType: entry.target.type,
          targetId: entry.target.id,
          before: withoutSecrets(entry.target.type, entry.before),
          after: withoutSecrets(entry.target.type, entry.after),
        }),
        requestId: this.requestId,
      })
      .onConflictDoNothing({ target: auditEntries.id })
      .returning();
    if (inserted) await recordEntryEvents(db, presentEntry(inserted));
    this.recorded = true;
  }
}

/** The journal for a request to `endpoint`, or silentAudit when the request writes nothing. */
export function auditFor(
  endpoint: Endpoint,
  actor: AuthenticatedActor,
  requestId: string,
  input: { params: unknown; query: unknown; body: unknown },
): AuditJournal | null {
  const spec = endpoint.audit;
  if (!spec) return null;
  const query = (input.query ?? {}) as Record<string, unknown>;
  if (spec.unlessQuery && query[spec.unlessQuery] === true) return null;
  const asRecord = (value: unknown) => (value && typeof value === "object" ? (value as Record<string, unknown>) : {});
  return new AuditJournal(endpoint, spec.action, actor, requestId, asRecord(input.params), asRecord(input.body));
}

/**
 * After a write request's handler succeeded (with `answer`): a write that recorded no entry (or,
 * writing several targets, fewer entries than the answer says it wrote) is a bug of ours.
 * Outside production it fails loudly (every test of a write checks it); in production the entry
 * is written afterwards, so none is lost, and the bug is logged.
 */
export async function settleJournal(journal: AuditJournal | null, db: Database, answer?: unknown): Promise<void> {
  if (!journal) return;
  const expected = journal.perTarget ? journal.perTarget(answer) : 1;
  if (journal.recordedTargets >= expected) return;
  const bug = new Error(`A write succeeded without recording its audit entry (request ${journal.id}).`);
  if (process.env.NODE_ENV !== "production") throw bug;
  logError("audit entry recorded after the write", bug, {});
  await journal.recordFromRequest(db);
}

/** A console session as its sign-in and sign-out entries show it: never the token. */
export interface SessionSnapshot {
  id: string;
  user_id: string;
  expires_at: string;
}

/**
 * Records a console sign-in (`after`: the session started) or sign-out (`before`: the session
 * ended) of a user (CONTRACT §17): actor the user, target the console session. Call it in the
 * transaction that starts or ends the session row. A failed sign-in is no entry.
 */
export async function recordSessionEntry(
  db: Database,
  entry: { kind: "sign-in" | "sign-out"; userId: string; requestId: string; session: SessionSnapshot },
): Promise<void> {
  const signIn = entry.kind === "sign-in";
  await insertSignInEntry(db, {
    action: `session.${entry.kind}`,
    userId: entry.userId,
    requestId: entry.requestId,
    target: { path: SESSION_TARGET, type: "session", id: entry.session.id },
    before: signIn ? null : entry.session,
    after: signIn ? entry.session : null,
  });
}

/**
 * Records what a single sign-on did to the user signing in (created, linked, role set from the
 * groups): actor that user, target the user as the API presents them before and after.
 */
export async function recordSsoEntry(
  db: Database,
  entry: { action: SsoAuditAction; userId: string; requestId: string; before: unknown; after: unknown },
): Promise<void> {
  const target = { path: `/ext/svc/admin/users/${encodeURIComponent(entry.userId)}`, type: "user" as const, id: entry.userId };
  await insertSignInEntry(db, { ...entry, target });
}

/** An entry written by a sign-in rather than an endpoint: the signing-in user is its actor. */
async function insertSignInEntry(
  db: Database,
  entry: {
    action: SessionAuditAction | SsoAuditAction;
    userId: string;
    requestId: string;
    target: { path: string; type: AuditTargetType; id: string };
    before: unknown;
    after: unknown;
  },
): Promise<void> {
  const [inserted] = await db
    .insert(auditEntries)
    .values({
      actorType: "user",
      actorId: entry.userId,
      userId: entry.userId,
      action: entry.action,
      target: entry.target.path,
      targetType: entry.target.type,
      targetId: entry.target.id,
      before: withoutSecrets(entry.target.type, entry.before),
      after: withoutSecrets(entry.target.type, entry.after),
      requestId: entry.requestId,
    })
    .returning();
  await recordEntryEvents(db, presentEntry(inserted!));
}

/** The `target` path of session entries: next-auth's session endpoint (sessions have no /ext/svc path). */
const SESSION_TARGET = "/api/auth/session";
