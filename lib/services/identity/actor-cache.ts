import "server-only";
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { Database, DatabaseHandle, Notifications } from "@/db/client";

/*
 * A short-lived in-process cache of who an API key or a console session stands for, so the
 * hot path authenticates without a database round trip, and revocation still takes effect on
 * the very next request in every process.
 *
 * Every write that can change or end an actor (key revoked, user or service account
 * deactivated, deleted, role or name changed, session ended) calls `invalidateActors(db)` with
 * its transaction, which sends NOTIFY (delivered at commit, atomically with the change), and
 * `actorChangesSettled(db)` with the database after the commit, which returns once every process
 * that may serve from its cache has dropped it:
 *
 * - Each process LISTENs on one channel and heartbeats on it (a NOTIFY every HEARTBEAT_MS). It
 *   serves from its cache only while its own latest heartbeat came back within FRESH_MS of
 *   being sent: PostgreSQL delivers notifications in commit order, so a fresh heartbeat proves
 *   every change committed before it was sent has been seen. A listener that is down, lagging or
 *   not yet confirmed makes its process read the database for every request.
 * - After committing, the writer sends `sync` and waits until every process whose heartbeat it
 *   has seen recently answered `ack` (each drops its cache first). A process that does not
 *   answer within SETTLE_WAIT_MS (> FRESH_MS) has by then stopped serving from its cache, since
 *   its heartbeats cannot be fresh. A process starts serving from its cache only ENABLE_AFTER_MS
 *   after its first heartbeat came back, by when every healthy writer knows it as a peer.
 * - Lookups remember the cache generation before reading the database and store their answer
 *   only if no invalidation arrived meanwhile, so a read of the old rows is never cached late.
 *
 * PGlite is one process: invalidation drops the cache in place, nothing to wait for.
 *
 * Trade-off: a write that changes actors waits for one NOTIFY round trip through every
 * process (milliseconds), or SETTLE_WAIT_MS when a process does not answer. Writers in processes
 * without a listener (scripts, tests that build their own AppContext) do not wait.
 */

// Every process on the database listens here, of whichever version (a rolling deploy runs two): the
// name stays what the first version called it.
const CHANNEL = "principal_cache";
/** How long an entry lives without any invalidation: bounds memory and staleness of fields nobody invalidates. */
const ENTRY_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;
const HEARTBEAT_MS = 250;
const FRESH_MS = 1_000;
const ENABLE_AFTER_MS = 2 * FRESH_MS;
const SETTLE_WAIT_MS = FRESH_MS + 500;
const PEER_FORGET_MS = 5_000;

interface Entry {
  value: unknown;
  expiresAt: number;
}

/** The cache of one database handle. */
export class ActorCache {
  private entries = new Map<string, Entry>();
  /** Bumped by every invalidation: a lookup that read before it must not store what it read. */
  private generation = 0;

  constructor(private readonly usable: () => boolean) {}

  /** Whether lookups may be answered from the cache right now. */
  serving(): boolean {
    return this.usable();
  }

  /** What the lookup must hand back to `store`. */
  beginRead(): number {
    return this.generation;
  }

  get<T>(key: string): T | undefined {
    if (!this.usable()) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= performance.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  store(key: string, value: unknown, readAt: number): void {
    if (readAt !== this.generation || !this.usable()) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { value, expiresAt: performance.now() + ENTRY_TTL_MS });
  }

  drop(): void {
    this.generation++;
    this.entries.clear();
  }
}

/** Notifications on the channel: `hb <process> <sent-at>`, `inv`, `sync <nonce>`, `ack <nonce> <process>`. */
class ActorCacheListener {
  readonly id = randomBytes(6).toString("hex");
  readonly cache = new ActorCache(() => this.fresh());
  /** Peer process id → when we last heard its heartbeat (performance.now()). */
  private peers = new Map<string, number>();
  /** Send time of our latest heartbeat that came back, -Infinity until one did (or since a reconnect). */
  private lastHeartbeatBack = -Infinity;
  private firstHeartbeatBack: number | null = null;
  private heartbeatInFlight = false;
  private timer: NodeJS.Timeout | null = null;
  private waits = new Map<string, { pending: Set<string>; done(): void }>();
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly notifications: Notifications) {}

  async start(): Promise<void> {
    const subscription = await this.notifications.listen(
      CHANNEL,
      (payload) => this.receive(payload),
      () => {
        // (Re)connected: whatever was sent while the connection was down is lost.
        this.cache.drop();
        void this.heartbeat();
      },
    );
    this.unlisten = subscription.unlisten;
    this.timer = setInterval(() => void this.heartbeat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.lastHeartbeatBack = -Infinity;
    for (const wait of this.waits.values()) wait.done();
    await this.unlisten?.().catch(() => {});
  }

  /** Whether the cache may answer now: our listener is confirmed, caught up, and known to every peer. */
  fresh(): boolean {
    const now = performance.now();
    return now - this.lastHeartbeatBack < FRESH_MS && this.firstHeartbeatBack !== null && now - this.firstHeartbeatBack >= ENABLE_AFTER_MS;
  }

  private async heartbeat(): Promise<void> {
    if (this.heartbeatInFlight || !this.timer) return;
    this.heartbeatInFlight = true;
    try {
      await this.notifications.notify(CHANNEL, `hb ${this.id} ${performance.now()}`);
    } catch {
      // The database is unreachable: heartbeats stop coming back, so the cache goes unused.
    } finally {
      this.heartbeatInFlight = false;
    }
  }

  private receive(payload: string): void {
    const [kind, first, second] = payload.split(" ");
    if (kind === "hb" && first) {
      const now = performance.now();
      this.peers.set(first, now);
      if (first === this.id) {
        const sentAt = Number(second);
        if (sentAt > this.lastHeartbeatBack) this.lastHeartbeatBack = sentAt;
        this.firstHeartbeatBack ??= now;
      }
    } else if (kind === "inv") {
      this.cache.drop();
    } else if (kind === "sync" && first) {
      this.cache.drop();
      this.notifications.notify(CHANNEL, `ack ${first} ${this.id}`).catch(() => {});
    } else if (kind === "ack" && first && second) {
      const wait = this.waits.get(first);
      if (wait) {
        wait.pending.delete(second);
        if (wait.pending.size === 0) wait.done();
      }
    }
  }

  /** Resolves once every live process dropped its cache, or after SETTLE_WAIT_MS. */
  async settle(): Promise<void> {
    const now = performance.now();
    const healthy = now - this.lastHeartbeatBack < FRESH_MS;
    // Unhealthy, we cannot know who else serves from a cache: wait out the bound instead.
    const pending = new Set(healthy ? [...this.peers].filter(([, seen]) => now - seen < PEER_FORGET_MS).map(([id]) => id) : ["unknown"]);
    pending.add(this.id);
    const nonce = randomBytes(8).toString("hex");
    await new Promise<void>((resolve) => {
      const timeout = setTimeout(finish, SETTLE_WAIT_MS);
      const waits = this.waits;
      function finish() {
        clearTimeout(timeout);
        waits.delete(nonce);
        resolve();
      }
      this.waits.set(nonce, { pending, done: finish });
      this.notifications.notify(CHANNEL, `sync ${nonce}`).catch(() => {});
    });
  }
}

// Route bundles and instrumentation are separate module graphs in one process: share via globalThis.
const SLOT = Symbol.for("bank-template-console.actor-caches");
type Registry = {
  caches: WeakMap<Database, ActorCache>;
  listeners: WeakMap<Database, ActorCacheListener>;
  /** Caches of single-process databases (PGlite), dropped in place by every invalidation. */
  local: Set<ActorCache>;
};
const slots = globalThis as Record<symbol, Registry | undefined>;
slots[SLOT] ??= { caches: new WeakMap(), listeners: new WeakMap(), local: new Set() };
const registry = slots[SLOT];

/** The cache of a database, or undefined when none was started for it (every lookup reads the database). */
export function actorCacheFor(db: Database): ActorCache | undefined {
  return registry.caches.get(db);
}

/**
 * Starts caching actors for a database: in place for PGlite, behind a LISTEN connection for
 * PostgreSQL. Stops when the database closes.
 */
export async function startActorCache(handle: DatabaseHandle): Promise<void> {
  if (registry.caches.has(handle.db)) return;
  if (!handle.notifications) {
    const cache = new ActorCache(() => true);
    registry.caches.set(handle.db, cache);
    registry.local.add(cache);
    handle.onClose(() => {
      registry.local.delete(cache);
      registry.caches.delete(handle.db);
    });
    return;
  }
  const listener = new ActorCacheListener(handle.notifications);
  await listener.start();
  registry.caches.set(handle.db, listener.cache);
  registry.listeners.set(handle.db, listener);
  handle.onClose(async () => {
    registry.caches.delete(handle.db);
    registry.listeners.delete(handle.db);
    await listener.stop();
  });
}

/**
 * Call inside the transaction of every write that changes or ends an actor. The NOTIFY is
 * delivered at commit, to every process; a rolled-back write sends nothing. Single-process
 * caches drop at once (an early drop only costs a database read).
 */
export async function invalidateActors(db: Database): Promise<void> {
  for (const cache of registry.local) cache.drop();
  await db.execute(sql`select pg_notify(${CHANNEL}, 'inv')`);
}

/**
 * Call after the transaction that invalidated committed, before answering: returns once every
 * process has dropped what it cached, so the change holds for the very next request anywhere.
 */
export async function actorChangesSettled(db: Database): Promise<void> {
  await registry.listeners.get(db)?.settle();
}
