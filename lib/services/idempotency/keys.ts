import "server-only";
import { createHash, randomUUID } from "node:crypto";
import canonicalize from "canonicalize";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { isForeignKeyViolation } from "@/db/errors";
import { idempotencyKeys } from "@/db/schema";
import { conflict, DomainError, unauthorized } from "@/lib/contracts/errors";
import { logError } from "@/lib/platform/log";
import type { Audit, AuthenticatedActor } from "@/lib/services/context";
import { pruneInBatches, schedulePrune } from "@/lib/services/jobs/prune";

/**
 * Writes done once per `Idempotency-Key` (CONTRACT §18), shared by every process through the
 * `idempotency_keys` table. The pipeline (lib/http/route.ts) claims the key before the handler,
 * the write's own transaction marks the claim `written` (markingWrites: with the audit entry,
 * which every write records in its transaction), and the answer is stored after the handler:
 *
 * - A claim is one conditional statement (insert, or take over a row that expired or whose
 *   process stopped), so two requests with one key never both run.
 * - A write that committed always left its claim `written`: a retry never writes twice, even
 *   when the process stopped between the commit and storing the answer (the retry then answers
 *   409 `idempotency-key-in-use` until the key expires, since the answer is not known).
 * - A request that fails with a 5xx or a fault before writing releases its claim, so a retry runs.
 * - A claim left `running` by a stopped process is taken over after CLAIM_STALE_MS; a running
 *   request refreshes its claim meanwhile, so only a stopped one goes stale.
 */

/** How long a stored answer answers its key (CONTRACT §18). */
const IDEMPOTENCY_WINDOW_HOURS = 24;

/** A claim not refreshed for this long was left by a stopped process: another request may take the key over. */
const CLAIM_STALE_MS = 60_000;
const CLAIM_REFRESH_MS = 20_000;

/** An answer as stored and replayed: status, the headers that matter, the body as sent. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** A key this request holds until it stores its answer or releases the key. */
export interface IdempotencyClaim {
  readonly userId: string;
  readonly actorSa: string;
  readonly key: string;
  readonly claimId: string;
  /** Stops refreshing the claim (called by storeAnswer and releaseClaim). */
  stopRefreshing(): void;
}

export type ClaimOutcome = { claim: IdempotencyClaim; replay?: never } | { replay: StoredAnswer; claim?: never };

/** What a request asks for: method, path with query, and a hash of its JSON body in canonical form (RFC 8785). */
export function requestFingerprint(method: string, pathWithQuery: string, body: unknown): string {
  const bodyText = body === undefined ? "" : (canonicalize(body) ?? "");
  const hash = createHash("sha256").update(bodyText).digest("base64url");
  return `${method} ${pathWithQuery} ${hash}`;
}

const ownerOf = (actor: AuthenticatedActor) => ({
  userId: actor.userId,
  // A service account's id is unique per owner only; '' stands for the user itself.
  actorSa: actor.type === "service_account" ? actor.id : "",
  serviceAccountId: actor.type === "service_account" ? actor.id : null,
});

const rowOf = (claim: Pick<IdempotencyClaim, "userId" | "actorSa" | "key">) =>
  and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.actorSa, claim.actorSa), eq(idempotencyKeys.key, claim.key));

const ms = (value: number) => sql`make_interval(secs => ${value / 1000})`;
const expired = sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`;

/** A lookup that found the row gone between two statements: claiming again settles it. */
const CLAIM_ATTEMPTS = 3;

/**
 * Claims `key` for this request, or answers what an earlier request with it decided: its stored
 * answer (`replay`), 422 `idempotency-key-reused` when it asked for something else, 409
 * `idempotency-key-in-use` while it runs.
 */
export async function claimIdempotencyKey(
  db: Database,
  actor: AuthenticatedActor,
  key: string,
  fingerprint: string,
): Promise<ClaimOutcome> {
  const owner = ownerOf(actor);
  const claimId = randomUUID();
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    // Read first, without locking: a key in use answers at once, even while the write holding it
    // has the row locked in its transaction (markingWrites), which the insert below would wait for.
    const [held] = await db
      .select({
        fingerprint: idempotencyKeys.fingerprint,
        state: idempotencyKeys.state,
        stale: sql<boolean>`${idempotencyKeys.claimedAt} < now() - ${ms(CLAIM_STALE_MS)}`,
        status: idempotencyKeys.status,
        headers: idempotencyKeys.headers,
        body: idempotencyKeys.body,
      })
      .from(idempotencyKeys)
      .where(and(rowOf({ ...owner, key }), sql`not ${expired}`));
    if (held) {
      if (held.fingerprint !== fingerprint) {
        throw new DomainError(
          "idempotency-key-reused",
          "This Idempotency-Key was used for another request (method, path or body); use a new key for a new write.",
        );
      }
      if (held.state === "done" && held.status !== null) {
        return { replay: { status: held.status, headers: held.headers ?? {}, body: held.body } };
      }
      if (held.state === "written") {
        throw keyInUse(
          "The first request with this Idempotency-Key has written and not answered yet (or its process stopped before answering); read the resource to see its state.",
        );
      }
      if (!held.stale) throw keyInUse("The first request with this Idempotency-Key is still running; retry later.");
    }
    if (await claimRow(db, { ...owner, key }, fingerprint, claimId)) return { claim: holding({ ...owner, key, claimId }, db) };
  }
  throw keyInUse("The first request with this Idempotency-Key is changing; retry later.");
}

const keyInUse = (detail: string) => conflict(detail, undefined, "idempotency-key-in-use");

/**
 * Inserts the claim, or takes over an expired key or a claim of a stopped process (for the same
 * request only): one conditional statement, so of two requests only one gets it. True when this one did.
 */
async function claimRow(
  db: Database,
  row: ReturnType<typeof ownerOf> & { key: string },
  fingerprint: string,
  claimId: string,
): Promise<boolean> {
  const fresh = { fingerprint, state: "running" as const, claimId, claimedAt: sql`now()`, createdAt: sql`now()` };
  try {
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ ...row, ...fresh })
      .onConflictDoUpdate({
        target: [idempotencyKeys.userId, idempotencyKeys.actorSa, idempotencyKeys.key],
        set: { ...fresh, status: null, headers: null, body: null },
        setWhere: sql`${expired} or (${idempotencyKeys.state} = 'running'
          and ${idempotencyKeys.claimedAt} < now() - ${ms(CLAIM_STALE_MS)}
          and ${idempotencyKeys.fingerprint} = excluded.fingerprint)`,
      })
      .returning({ claimId: idempotencyKeys.claimId });
    return claimed.length > 0;
  } catch (error) {
    // The caller was deleted since it authenticated.
    if (isForeignKeyViolation(error)) throw unauthorized("The caller's account no longer exists.");
    throw error;
  }
}

/** A claim whose row is refreshed while the request runs, so it never looks like a stopped process's. */
function holding(row: Omit<IdempotencyClaim, "stopRefreshing">, db: Database): IdempotencyClaim {
  const timer = setInterval(() => {
    db.update(idempotencyKeys)
      .set({ claimedAt: sql`now()` })
      .where(and(rowOf(row), eq(idempotencyKeys.claimId, row.claimId)))
      .catch((error: unknown) => logError("refreshing an idempotency claim failed", error));
  }, CLAIM_REFRESH_MS);
  timer.unref?.();
  return { ...row, stopRefreshing: () => clearInterval(timer) };
}

/**
 * The request's audit journal, which also marks the claim `written` in the transaction that
 * records the entry (the write's own). A claim another request took over meanwhile makes the
 * write roll back: only one request with a key ever writes.
 */
export function markingWrites(audit: Audit, db: Database, claim: IdempotencyClaim): Audit {
  return {
    record: async (entry) => {
      await audit.record(entry);
      const marked = await db
        .update(idempotencyKeys)
        .set({ state: "written" })
        .where(and(rowOf(claim), eq(idempotencyKeys.claimId, claim.claimId)))
        .returning({ key: idempotencyKeys.key });
      if (!marked.length) {
        throw keyInUse("Another request took this Idempotency-Key over; nothing was written.");
      }
    },
    using: (other) => markingWrites(audit.using(other), other, claim),
  };
}

/** Stores the answer of the request holding `claim`, for the key's later requests. */
export async function storeAnswer(db: Database, claim: IdempotencyClaim, answer: StoredAnswer): Promise<void> {
  claim.stopRefreshing();
  await db
    .update(idempotencyKeys)
    .set({ state: "done", status: answer.status, headers: answer.headers, body: answer.body })
    .where(and(rowOf(claim), eq(idempotencyKeys.claimId, claim.claimId)));
}

/**
 * Frees the key after a failure the request did not answer for good (a 5xx, a fault), so a retry
 * runs — unless the write committed (`written`): then the key stays taken, as a retry would write twice.
 */
export async function releaseClaim(db: Database, claim: IdempotencyClaim): Promise<void> {
  claim.stopRefreshing();
  await db
    .delete(idempotencyKeys)
    .where(and(rowOf(claim), eq(idempotencyKeys.claimId, claim.claimId), eq(idempotencyKeys.state, "running")));
}

const PRUNE_BATCH = 5000;

/** Deletes the keys older than `hours`; resolves to how many went. */
export function pruneIdempotencyKeys(db: Database, hours: number = IDEMPOTENCY_WINDOW_HOURS, signal?: AbortSignal): Promise<number> {
  return pruneInBatches(
    async (size) =>
      (
        await db
          .delete(idempotencyKeys)
          .where(
            sql`(${idempotencyKeys.userId}, ${idempotencyKeys.actorSa}, ${idempotencyKeys.key}) in (select user_id, principal_sa, key from ${idempotencyKeys} where ${idempotencyKeys.createdAt} < now() - make_interval(hours => ${hours}) limit ${size})`,
          )
          .returning({ key: idempotencyKeys.key })
      ).length,
    PRUNE_BATCH,
    signal,
  );
}

/** Hourly, one process at a time; expired keys answer nothing meanwhile. */
export function startIdempotencyPrune(db: Database): () => void {
  return schedulePrune(db, "idempotency-prune", 60 * 60_000, (signal) => pruneIdempotencyKeys(db, IDEMPOTENCY_WINDOW_HOURS, signal));
}
