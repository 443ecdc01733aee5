"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import type { DiscardQuestion } from "./discard";
import { prepare, registerGuard } from "./leave-guard";

/**
 * While `active` (a form with unsaved edits), leaving the page asks `what` first, by default
 * "Discard changes?": the browser's prompt on reload or close, the console's dialog on a link
 * within the console and on Back or Forward (leave-guard.ts). Clean or saved, nothing asks.
 *
 * The guard's listeners are in place in the same commit that makes the form dirty: a click
 * right after typing is caught even when the page's other code is slow to arrive. Only the
 * dialog's code loads later, as soon as a form that may ask is on the page (`prepare`).
 */
export function useLeaveGuard(active: boolean, what?: DiscardQuestion): void {
  const router = useRouter();
  useEffect(() => {
    prepare();
  }, []);
  useEffect(() => {
    if (!active) return;
    return registerGuard(what, router);
  }, [active, what, router]);
}
