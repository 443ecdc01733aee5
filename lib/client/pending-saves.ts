import { useSyncExternalStore } from "react";
import { ApiProblem } from "./problem";

// A console write that could not reach the server is not a failure the user must answer: it is
// held here and sent again, the same request with the same Idempotency-Key (CONTRACT §18), once
// the server answers. The key makes the resend safe when the first request was done and only its
// answer was lost: the server answers the first answer again instead of writing twice. Reads do
// not come here; TanStack Query pauses and repeats them (ConsoleProviders).
//
// The reachability store (components/console/UnreachableStore) loads after the page; it connects
// itself here (connectReachability), and a save that failed before it did waits for it.

/** What this module needs of the reachability store. */
export interface ReachabilityHooks {
  reportUnreachable(): void;
  whenReachable(): Promise<void>;
}

/** A write waiting for the server, for the banner and the form that sent it. */
export interface PendingSave {
  /** Not sent again; the call that made it fails with a "cancelled" problem. */
  cancel(): void;
  /** Settles (never rejects) once the save is answered or cancelled. */
  readonly settled: Promise<void>;
}

/** While the first request of a key still runs, the resend asks again this often, this many times. */
const KEY_IN_USE_DELAY_MS = 1000;
const KEY_IN_USE_TRIES = 30;

let connect: (hooks: ReachabilityHooks) => void = () => {};
let reachabilityHooks: Promise<ReachabilityHooks> = new Promise((resolve) => {
  connect = resolve;
});

/** The reachability store is loaded: waiting saves use it. */
export function connectReachability(hooks: ReachabilityHooks): void {
  connect(hooks);
  reachabilityHooks = Promise.resolve(hooks);
}

let saves: readonly PendingSave[] = [];
const listeners = new Set<() => void>();
const watchers = new Set<(save: PendingSave) => void>();

function setSaves(next: readonly PendingSave[]) {
  const before = saves.length;
  saves = next;
  guardUnload(before, next.length);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const getSaves = () => saves;

/** The saves waiting for the server, for components. */
export function usePendingSaves(): readonly PendingSave[] {
  return useSyncExternalStore(subscribe, getSaves, getSaves);
}

/** Cancels every waiting save (the banner's Cancel). */
export function cancelPendingSaves(): void {
  for (const save of saves) save.cancel();
}

/**
 * Calls `onSave` for every save that starts waiting until the returned undo: a form watches
 * while its submission runs, and so knows which waiting saves are its own.
 */
export function watchSaves(onSave: (save: PendingSave) => void): () => void {
  watchers.add(onSave);
  return () => {
    watchers.delete(onSave);
  };
}

// Reloading or closing the page would drop a waiting save unseen: the browser asks first. Within
// the console nothing is lost by going to another page (the save waits in this module, the
// banner keeps saying so), so links and Back do not ask.
function onBeforeUnload(event: BeforeUnloadEvent) {
  event.preventDefault();
  event.returnValue = "";
}

function guardUnload(before: number, after: number) {
  if (typeof window === "undefined") return;
  if (before === 0 && after > 0) window.addEventListener("beforeunload", onBeforeUnload);
  if (before > 0 && after === 0) window.removeEventListener("beforeunload", onBeforeUnload);
}

/** The problem a cancelled save's call fails with. */
function saveCancelled(): ApiProblem {
  return new ApiProblem(0, "Save Cancelled", "Save cancelled: it was not sent again.", [], undefined);
}

/** A cancelled save's failure: not a lost connection, though nothing answered. */
export function isSaveCancelled(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 0 && error.title === "Save Cancelled";
}

async function isKeyInUse(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  const problem = await ApiProblem.fromResponse(response.clone());
  return problem.problemType === "idempotency-key-in-use";
}

/**
 * `send` failed for want of the server: sends it again, once the server answers, until it gets
 * an answer (a network failure again waits again), and returns that answer. `send` must repeat
 * the same request with the same Idempotency-Key, so however often it is sent, the write is done
 * once. A 409 `idempotency-key-in-use` means the first request is still running: asked again
 * shortly, a bounded number of times. Rejects with saveCancelled() when cancelled while waiting.
 */
export async function resendWhenReachable(send: () => Promise<Response>): Promise<Response> {
  let cancelled = false;
  let onCancel = () => {};
  const cancelledWait = new Promise<void>((resolve) => {
    onCancel = resolve;
  });
  let settle = () => {};
  const save: PendingSave = {
    cancel() {
      cancelled = true;
      onCancel();
    },
    settled: new Promise<void>((resolve) => {
      settle = resolve;
    }),
  };
  setSaves([...saves, save]);
  for (const watcher of watchers) watcher(save);
  try {
    let waitForServer = true;
    let keyInUse = 0;
    for (;;) {
      if (waitForServer) {
        const hooks = await Promise.race([reachabilityHooks, cancelledWait]);
        if (hooks) {
          hooks.reportUnreachable();
          await Promise.race([hooks.whenReachable(), cancelledWait]);
        }
      } else {
        await Promise.race([new Promise((resolve) => setTimeout(resolve, KEY_IN_USE_DELAY_MS)), cancelledWait]);
      }
      if (cancelled) throw saveCancelled();
      let response: Response;
      try {
        response = await send();
      } catch {
        if (cancelled) throw saveCancelled();
        waitForServer = true;
        continue;
      }
      if (keyInUse < KEY_IN_USE_TRIES && (await isKeyInUse(response))) {
        keyInUse++;
        waitForServer = false;
        continue;
      }
      return response;
    }
  } finally {
    setSaves(saves.filter((s) => s !== save));
    settle();
  }
}
