import { useSyncExternalStore } from "react";
import { connectResend, type PendingSave, pendingSaves, saveCancelled } from "./pending-saves";
import { ApiProblem } from "./problem";

// How a write that got no answer waits for the server and is sent again (lib/client/pending-saves.ts
// holds the saves). Loaded after the page, with the reachability store that it waits on
// (components/console/UnreachableWatch connects the two).

/** What this module needs of the reachability store. */
export interface ReachabilityHooks {
  reportUnreachable(): void;
  whenReachable(): Promise<void>;
}

/** While the first request of a key still runs, the resend asks again this often, this many times. */
const KEY_IN_USE_DELAY_MS = 1000;
const KEY_IN_USE_TRIES = 30;

async function isKeyInUse(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  const problem = await ApiProblem.fromResponse(response.clone());
  return problem.problemType === "idempotency-key-in-use";
}

/**
 * Sends `send` again once the server answers, until it gets an answer (a network failure again
 * waits again), and returns that answer. However often it is sent, its Idempotency-Key makes the
 * write happen once. A 409 `idempotency-key-in-use` means the first request is still running:
 * asked again shortly, a bounded number of times. Rejects with saveCancelled() when cancelled
 * while waiting; once sent, the answer counts.
 */
async function resend(send: () => Promise<Response>, hooks: ReachabilityHooks): Promise<Response> {
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
  pendingSaves.add(save);
  try {
    let waitForServer = true;
    let keyInUse = 0;
    for (;;) {
      if (waitForServer) {
        hooks.reportUnreachable();
        await Promise.race([hooks.whenReachable(), cancelledWait]);
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
    pendingSaves.remove(save);
    settle();
  }
}

// Reloading or closing the page would drop a waiting save unseen: the browser asks first. Within
// the console nothing is lost by going to another page (the save waits in this module, the
// banner keeps saying so), so links and Back do not ask.
function onBeforeUnload(event: BeforeUnloadEvent) {
  event.preventDefault();
  event.returnValue = "";
}

let guarding = false;
function guardUnload() {
  const waiting = pendingSaves.get().length > 0;
  if (typeof window === "undefined" || waiting === guarding) return;
  guarding = waiting;
  if (waiting) window.addEventListener("beforeunload", onBeforeUnload);
  else window.removeEventListener("beforeunload", onBeforeUnload);
}

let watchingUnload = false;

/** The reachability store is loaded: writes that get no answer wait for it and are sent again. */
export function connectReachability(hooks: ReachabilityHooks): void {
  if (!watchingUnload) pendingSaves.subscribe(guardUnload);
  watchingUnload = true;
  connectResend((send) => resend(send, hooks));
}

/** The saves waiting for the server, for components. */
export function usePendingSaves(): readonly PendingSave[] {
  return useSyncExternalStore(pendingSaves.subscribe, pendingSaves.get, pendingSaves.get);
}

/** Cancels every waiting save (the banner's Cancel). */
export function cancelPendingSaves(): void {
  for (const save of pendingSaves.get()) save.cancel();
}
