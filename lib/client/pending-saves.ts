import { changeListeners } from "./change-listeners";
import { ApiProblem } from "./problem";

// A console write that could not reach the server is not a failure the user must answer: it
// waits for the server and is sent again, the same request with the same Idempotency-Key
// (CONTRACT §18), so it is done once even when only its answer was lost. This module is the part
// every page loads: the saves that wait, for the forms that sent them and the banner. How they
// wait and are sent again (lib/client/resend.ts) loads after the page with the reachability
// store, and connects itself here; a save that failed before that waits for it.

/** A write waiting for the server, for the banner and the form that sent it. */
export interface PendingSave {
  /** Not sent again; the call that made it fails with a "cancelled" problem. */
  cancel(): void;
  /** Settles (never rejects) once the save is answered or cancelled. */
  readonly settled: Promise<void>;
}

type Resend = (send: () => Promise<Response>) => Promise<Response>;

let connect: (resend: Resend) => void = () => {};
let resender = new Promise<Resend>((resolve) => {
  connect = resolve;
});

/** lib/client/resend.ts is loaded: writes that get no answer are sent again by it. */
export function connectResend(resend: Resend): void {
  connect(resend);
  resender = Promise.resolve(resend);
}

/**
 * `send` got no answer: sends it again once the server answers, and returns the answer then.
 * `send` must repeat the same request with the same Idempotency-Key.
 */
export function resendWhenReachable(send: () => Promise<Response>): Promise<Response> {
  return resender.then((resend) => resend(send));
}

let saves: readonly PendingSave[] = [];
const listeners = changeListeners();
const watchers = new Set<(save: PendingSave) => void>();

function setSaves(next: readonly PendingSave[]) {
  saves = next;
  listeners.emit();
}

/** The saves waiting for the server. */
export const pendingSaves = {
  subscribe: listeners.subscribe,
  get: () => saves,
  add(save: PendingSave) {
    setSaves([...saves, save]);
    for (const watcher of watchers) watcher(save);
  },
  remove(save: PendingSave) {
    setSaves(saves.filter((s) => s !== save));
  },
};

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

const SAVE_CANCELLED = "Save Cancelled";

/** The problem a cancelled save's call fails with. */
export const saveCancelled = () => new ApiProblem(0, SAVE_CANCELLED, "Save cancelled: it was not sent again.");

/** A cancelled save's failure: not a lost connection, though nothing answered. */
export function isSaveCancelled(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 0 && error.title === SAVE_CANCELLED;
}
