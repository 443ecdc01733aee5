"use client";
import type { useRouter } from "next/navigation";
import { askToDiscard, type DiscardQuestion, expectQuestions, UNSAVED_EDITS } from "./discard";
import { onPopStateFirst } from "./popstate";

// Leaving a page with unsaved edits (or a secret not yet confirmed copied) asks first. The App
// Router has no events to cancel a navigation with, so the guard listens on the window itself,
// ahead of the router:
// - reload, closing the tab, or a link to another site: the browser's own beforeunload prompt;
// - a click on a link within the console (Next's <Link>, Mantine's component={Link}): caught in
//   the capture phase before the link's own handler, and clicked again once discarding is agreed;
// - Back and Forward: popstate, caught before the router's listener (popstate.ts); the browser
//   already moved, so the guard moves back to the form's entry and, once discarding is agreed,
//   goes again.
// One set of listeners serves every form with edits; they exist only while one has.

type Router = ReturnType<typeof useRouter>;

const guards = new Map<symbol, DiscardQuestion>();
let router: Router | null = null;
/** Until then the user agreed to leave: nothing asks (a Discard's navigation may unload the page). */
let leavingUntil = 0;
/** The click that carries out a Discard passes. */
let passClick = false;
/** The traversal that carries out a Discard passes. */
let passPop = false;
/** The guard's own return to the form's history entry, not to be handled by anyone. */
let returning = false;
/** The history index of the form's entry, where the Navigation API tells it (Chromium). */
let formIndex: number | undefined;

const leaving = () => Date.now() < leavingUntil;
const question = () => guards.values().next().value ?? UNSAVED_EDITS;

function agreeToLeave() {
  leavingUntil = Date.now() + 10_000;
}

// The parts of the Navigation API the guard reads; not in TypeScript's DOM library yet.
interface NavigationLike extends EventTarget {
  currentEntry: { index: number } | null;
}
const navigationApi = () => (window as unknown as { navigation?: NavigationLike }).navigation;

function onBeforeUnload(event: BeforeUnloadEvent) {
  if (leaving()) return;
  event.preventDefault();
  // Browsers that predate preventDefault() here (Safari before 17) look at returnValue.
  event.returnValue = "";
}

/** The link a click follows to another console page, if it does. */
function consoleLinkOf(event: MouseEvent): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if ((anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return null;
  const url = new URL(anchor.href, window.location.href);
  // Another site unloads this page: beforeunload asks. The same page (a #fragment) is not leaving.
  if (url.origin !== window.location.origin) return null;
  if (url.pathname === window.location.pathname && url.search === window.location.search) return null;
  return anchor;
}

function onClick(event: MouseEvent) {
  if (passClick || leaving()) return;
  const anchor = consoleLinkOf(event);
  if (!anchor) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  const href = anchor.href;
  void askToDiscard(question()).then((discard) => {
    if (!discard) return;
    agreeToLeave();
    if (anchor.isConnected) {
      // The same link, clicked again: whatever it does (replace, scroll) it now does.
      passClick = true;
      try {
        anchor.click();
      } finally {
        passClick = false;
      }
    } else if (router) {
      router.push(href);
    } else {
      window.location.assign(href);
    }
  });
}

function onPopState(event: PopStateEvent) {
  if (passPop) {
    passPop = false;
    return;
  }
  if (leaving()) return;
  // Neither the router nor anyone else sees this traversal.
  event.stopImmediatePropagation();
  if (returning) {
    returning = false;
    return;
  }
  const now = navigationApi()?.currentEntry?.index;
  // Without the Navigation API the step is taken to be Back, by far the most common.
  const delta = formIndex !== undefined && now !== undefined && now !== formIndex ? formIndex - now : 1;
  returning = true;
  window.history.go(delta);
  void askToDiscard(question()).then((discard) => {
    if (!discard) return;
    agreeToLeave();
    passPop = true;
    window.history.go(-delta);
  });
}

function onEntryChange(event: Event) {
  // Pushes and replaces within the page move the form's entry along; traversals are the guard's business.
  if ((event as Event & { navigationType?: string }).navigationType !== "traverse") formIndex = navigationApi()?.currentEntry?.index;
}

function listen() {
  formIndex = navigationApi()?.currentEntry?.index;
  window.addEventListener("beforeunload", onBeforeUnload);
  window.addEventListener("click", onClick, { capture: true });
  onPopStateFirst(onPopState);
  navigationApi()?.addEventListener("currententrychange", onEntryChange);
}

function unlisten() {
  window.removeEventListener("beforeunload", onBeforeUnload);
  window.removeEventListener("click", onClick, { capture: true });
  onPopStateFirst(null);
  navigationApi()?.removeEventListener("currententrychange", onEntryChange);
  returning = false;
  leavingUntil = 0;
}

/** A form that may ask is on the page: the dialog's code loads now, before anything is typed. */
export const prepare = expectQuestions;

/**
 * Leaving the page asks `what` (by default about unsaved edits) until the returned undo is
 * called (useLeaveGuard calls it in the commit that makes a form dirty).
 */
export function registerGuard(what: DiscardQuestion | undefined, currentRouter: Router): () => void {
  router = currentRouter;
  const id = Symbol("leave guard");
  guards.set(id, what ?? UNSAVED_EDITS);
  if (guards.size === 1) listen();
  expectQuestions();
  return () => {
    guards.delete(id);
    if (guards.size === 0) unlisten();
  };
}
