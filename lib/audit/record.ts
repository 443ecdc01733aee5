import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { Database } from "@/db/client";
import { auditEntries } from "@/db/schema";
import type { Endpoint } from "@/lib/http/endpoint";
import type { Principal } from "@/lib/identity/principal";
import { logError } from "@/lib/server/log";

/**
 * The audit entry a write request owes (CONTRACT §14), set up by the pipeline before the
 * handler runs and written by the domain code inside the write's own transaction
 * (`recordAudit(tx)`), so the entry commits or rolls back with the write.
 */
interface PendingAudit {
  /** The entry's id, fixed per request: inserting it again is a no-op, so a request never leaves two. */
  id: string;
  action: string;
  /** The resource's path; `{name}`s left in it are filled by what the write reports. */
  target: string;
  actor: Principal;
  requestId: string;
  /** Set once an insert of the entry succeeded (in a transaction that may still roll back). */
  recorded: boolean;
}

const pendingAudit = new AsyncLocalStorage<PendingAudit>();

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** `{name}`s filled from `values` (path parameters, body fields); unknown ones are kept for the write to report. */
function fillTarget(template: string, ...sources: Array<Record<string, unknown> | undefined>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    for (const source of sources) {
      const value = source?.[name];
      if (typeof value === "string") return encodeURIComponent(value);
    }
    return whole;
  });
}

/**
 * Records the pending entry of the current write request with `db`: a transaction for a
 * local write (call it inside the write's transaction), or the database itself after a
 * remote store accepted a write, or when a successful request had nothing to write.
 * `reported` fills what only the write knows (`{key_id}` of a created key). Outside a
 * write request (scheduled jobs, GET paths sharing the code) it does nothing.
 */
export async function recordAudit(db: Database, reported: Record<string, string> = {}): Promise<void> {
  const pending = pendingAudit.getStore();
  if (!pending) return;
  const target = fillTarget(pending.target, reported);
  if (/\{[a-z_]+\}/.test(target)) throw new Error(`The audit target ${target} of ${pending.action} was not filled in.`);
  await db
    .insert(auditEntries)
    .values({
      id: pending.id,
      principalType: pending.actor.type,
      principalId: pending.actor.id,
      userId: pending.actor.userId,
      action: pending.action,
      target,
      requestId: pending.requestId,
    })
    .onConflictDoNothing({ target: auditEntries.id });
  pending.recorded = true;
}

interface WriteRequest {
  db: Database;
  principal: Principal;
  requestId: string;
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * Runs a handler of `endpoint`; when the endpoint writes, the handler's domain code records
 * the request's one audit entry with `recordAudit`. A handler that succeeded without recording
 * it is a bug of ours: outside production it fails loudly (every test of a write checks it);
 * in production the entry is written afterwards, so none is lost, and the bug is logged.
 */
export async function runAudited<T>(endpoint: Endpoint, request: WriteRequest, handler: () => Promise<T>): Promise<T> {
  const spec = endpoint.audit;
  if (!spec) return handler();
  const query = request.query as Record<string, unknown> | undefined;
  if (spec.unlessQuery && query?.[spec.unlessQuery] === true) return handler();
  const pending: PendingAudit = {
    id: randomUUID(),
    action: spec.action,
    target: fillTarget(spec.target ?? endpoint.path, request.params as Record<string, unknown>, request.body as Record<string, unknown>),
    actor: request.principal,
    requestId: request.requestId,
    recorded: false,
  };
  const result = await pendingAudit.run(pending, handler);
  if (!pending.recorded) {
    const bug = new Error(`${endpoint.method} ${endpoint.path} succeeded without recording its audit entry ${spec.action}.`);
    if (process.env.NODE_ENV !== "production") throw bug;
    logError("audit entry recorded after the write", bug, { requestId: request.requestId });
    await pendingAudit.run(pending, () => recordAudit(request.db));
  }
  return result;
}
