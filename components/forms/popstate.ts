"use client";

// Next's router handles Back and Forward from a popstate listener it adds as the app
// hydrates, and listeners on the window run in the order they were added (capture or not):
// one added later, when a form gets edits, runs after the router has already left the page.
// This one is added when the console's code is first evaluated, before the router's, and
// hands each popstate to the leave guard, which may keep it from the router.

type Handler = (event: PopStateEvent) => void;
let handler: Handler | null = null;

if (typeof window !== "undefined") {
  window.addEventListener("popstate", (event) => handler?.(event));
}

/** Sees every popstate before the router does; null to stop. */
export function onPopStateFirst(next: Handler | null): void {
  handler = next;
}
