"use client";
import { changeListeners } from "@/lib/client/change-listeners";

// The one "Discard changes?" question the console asks at a time, whoever asks it: a link
// clicked or Back pressed on a page with unsaved edits (useLeaveGuard), or a dialog with
// edits being closed (FormModal). DiscardChangesHost, rendered once by ConsoleProviders,
// shows it; without a host (a form outside the console) the browser's confirm() asks.

export interface DiscardQuestion {
  title: string;
  message: string;
}

export const UNSAVED_EDITS: DiscardQuestion = {
  title: "Discard changes?",
  message: "Your changes have not been saved. If you leave now, they are lost.",
};

interface Pending extends DiscardQuestion {
  answer: (discard: boolean) => void;
}

let pending: Pending | null = null;
let hostReady = false;
let wanted = false;
const listeners = changeListeners();
const emit = listeners.emit;

/** Resolves once the host can show the dialog, or after `ms` (false) when it still cannot. */
function hostShowsWithin(ms: number): Promise<boolean> {
  if (hostReady) return Promise.resolve(true);
  expectQuestions();
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(ready);
    };
    const check = () => hostReady && done(true);
    const timer = setTimeout(() => done(false), ms);
    const unsubscribe = listeners.subscribe(check);
  });
}

/** Resolves true to discard the edits, false to keep editing. */
export async function askToDiscard(question: DiscardQuestion = UNSAVED_EDITS): Promise<boolean> {
  // A second question while one is open (a click during the first): the first one decides.
  if (pending) return false;
  // The dialog's code may still be on its way (asked at once after typing).
  if (!(await hostShowsWithin(3000))) return window.confirm(`${question.title}\n\n${question.message}`);
  if (pending) return false;
  return new Promise((resolve) => {
    pending = {
      ...question,
      answer: (discard) => {
        pending = null;
        emit();
        resolve(discard);
      },
    };
    emit();
  });
}

/**
 * Some form has edits: the host loads the dialog's code now, so the question can be asked
 * without a download (the server may be out of reach by the time it is needed).
 */
export function expectQuestions(): void {
  if (wanted) return;
  wanted = true;
  emit();
}

export const discardStore = {
  subscribe: listeners.subscribe,
  pending: () => pending,
  wanted: () => wanted,
  /** The host says whether it can show the dialog (its code loaded and mounted). */
  setHostReady(ready: boolean) {
    hostReady = ready;
    emit();
  },
};
