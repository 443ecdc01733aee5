"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import type { DiscardQuestion } from "./discard";

// The guard's code (leave-guard.ts) and the dialog's load as soon as a form that may need them
// is on the page, not as part of the page's first load: in place by the time anything is typed.
const loadGuard = () => import("./leave-guard");

/**
 * While `active` (a form with unsaved edits), leaving the page asks `what` first, by default
 * "Discard changes?": the browser's prompt on reload or close, the console's dialog on a link
 * within the console and on Back or Forward (leave-guard.ts). Clean or saved, nothing asks.
 */
export function useLeaveGuard(active: boolean, what?: DiscardQuestion): void {
  const router = useRouter();
  useEffect(() => {
    loadGuard().then(
      (guard) => guard.prepare(),
      () => undefined,
    );
  }, []);
  useEffect(() => {
    if (!active) return;
    let live = true;
    let undo: (() => void) | undefined;
    loadGuard().then(
      (guard) => {
        if (live) undo = guard.registerGuard(what, router);
      },
      () => undefined, // the server went away before it loaded: the page leaves unasked
    );
    return () => {
      live = false;
      undo?.();
    };
  }, [active, what, router]);
}
