"use client";
import { useSyncExternalStore } from "react";
import { changeListeners } from "@/lib/client/change-listeners";
import { isGatewayAnswer } from "@/lib/client/gateway-answer";

// Whether the console can reach its server, for everything that talks to it: the router's
// page fetches, the data queries, the error boundary. Once something finds the server out of
// reach, the store asks /healthz again and again (sooner at first, then every few seconds,
// and at once on the browser's `online` event or Retry) until it answers, then says so to
// whoever waits. Nothing here reloads the page: the console picks up where it was.

export interface Reachability {
  unreachable: boolean;
  /** When the next automatic check runs (ms since the epoch), while unreachable. */
  nextCheckAt: number | null;
  /** A check is under way. */
  checking: boolean;
}

const DELAYS_MS = [1000, 2000, 3000, 5000];
const CHECK_TIMEOUT_MS = 5000;

let state: Reachability = { unreachable: false, nextCheckAt: null, checking: false };
const listeners = changeListeners();
let waiters: (() => void)[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let failedChecks = 0;
let checking: Promise<boolean> | null = null;
/** The browser's fetch, before guardRouterFetches wrapped it. */
let plainFetch: typeof fetch | null = null;

function update(next: Partial<Reachability>) {
  state = { ...state, ...next };
  listeners.emit();
}

const { subscribe } = listeners;

export const reachability = { subscribe, get: () => state };

/** The server's reachability, for components. */
export function useReachability(): Reachability {
  return useSyncExternalStore(subscribe, reachability.get, reachability.get);
}

function scheduleCheck() {
  clearTimeout(timer);
  const delay = DELAYS_MS[Math.min(failedChecks, DELAYS_MS.length - 1)]!;
  update({ nextCheckAt: Date.now() + delay });
  timer = setTimeout(() => void checkNow(), delay);
}

/** Something failed to reach the server: the console shows it and starts checking. */
export function reportUnreachable(): void {
  if (state.unreachable) return;
  failedChecks = 0;
  update({ unreachable: true });
  scheduleCheck();
}

async function serverAnswers(): Promise<boolean> {
  try {
    const response = await (plainFetch ?? fetch)("/healthz", { cache: "no-store", signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    return response.ok;
  } catch {
    return false;
  }
}

/** Checks now (Retry); true when the server answers. */
export function checkNow(): Promise<boolean> {
  if (!state.unreachable) return Promise.resolve(true);
  if (checking) return checking;
  clearTimeout(timer);
  update({ checking: true, nextCheckAt: null });
  checking = serverAnswers().then((answers) => {
    checking = null;
    if (answers) {
      failedChecks = 0;
      update({ unreachable: false, checking: false, nextCheckAt: null });
      const waiting = waiters;
      waiters = [];
      for (const resume of waiting) resume();
    } else {
      failedChecks++;
      update({ checking: false });
      scheduleCheck();
    }
    return answers;
  });
  return checking;
}

/** Resolves once the server answers again (at once when it does now). */
export function whenReachable(): Promise<void> {
  if (!state.unreachable) return Promise.resolve();
  return new Promise((resolve) => waiters.push(resolve));
}

const isRouterRequest = (init: RequestInit | undefined) => {
  const headers = new Headers(init?.headers);
  return (
    (init?.method ?? "GET").toUpperCase() === "GET" &&
    headers.get("rsc") === "1" &&
    // Prefetches only warm a cache: a failed one costs nothing, and waiting would hold up nobody.
    !headers.has("next-router-prefetch") &&
    !headers.has("next-router-segment-prefetch")
  );
};

/**
 * The router fetches a page's payload on every client-side navigation (and router.refresh()).
 * When that fetch fails, Next.js falls back to loading the URL as a whole new document, which
 * with the server out of reach is the browser's own error page, and the console is gone. So
 * the router's fetches, wrapped here, do not fail for want of the server: they wait until it
 * answers and are sent again, while the console shows that it is out of reach. Returns the undo.
 */
export function guardRouterFetches(): () => void {
  const original = window.fetch;
  plainFetch = original;
  const guarded: typeof fetch = async (input, init) => {
    if (!isRouterRequest(init)) return original(input, init);
    for (;;) {
      try {
        const response = await original(input, init);
        if (!isGatewayAnswer(response, "text/x-component")) return response;
      } catch (error) {
        // Cancelled on purpose (a newer refresh): the router expects the rejection.
        if (init?.signal?.aborted) throw error;
      }
      reportUnreachable();
      await whenReachable();
    }
  };
  window.fetch = guarded;
  return () => {
    if (window.fetch === guarded) window.fetch = original;
    plainFetch = null;
  };
}

/** The browser's own word: offline means out of reach, online is worth a check at once. */
export function watchConnectivity(): () => void {
  const offline = () => reportUnreachable();
  const online = () => void checkNow();
  window.addEventListener("offline", offline);
  window.addEventListener("online", online);
  return () => {
    window.removeEventListener("offline", offline);
    window.removeEventListener("online", online);
  };
}
