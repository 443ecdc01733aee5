"use client";
import { onlineManager } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type CSSProperties, type ReactNode, startTransition, useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { cancelPendingSaves, connectReachability, usePendingSaves } from "@/lib/client/resend";
import { plural } from "@/lib/shared/plural";
import { NOTICE_HEIGHT_VARIABLE, NOTICE_SLOT_ID } from "./notice-slot";
import { plainButton } from "./plain-styles";
import { UnreachableNotice } from "./UnreachableNotice";
import { guardRouterFetches, reachability, reportUnreachable, useReachability, watchConnectivity, whenReachable } from "./UnreachableStore";

// What the console does about a server out of reach, loaded right after a console page
// (ConsoleProviders and the error boundary import it), not as part of its first load.

export { reportUnreachable };

/** Space kept between the notice and the field being typed in, in pixels. */
const CLEARANCE = 8;

/**
 * Where the user is typing on the page, as a box: the caret in an editable text (a JSON editor,
 * whose content may be taller than the window), else the focused field; null when focus is not
 * in the page's content (nothing, the header, the navigation, a dialog).
 */
function typingSpot(): DOMRect | null {
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || !focused.closest("main")) return null;
  const selection = document.getSelection();
  if (focused.isContentEditable && selection?.focusNode && focused.contains(selection.focusNode)) {
    const caret = document.createRange();
    caret.setStart(selection.focusNode, selection.focusOffset);
    const box =
      caret.getClientRects()[0] ?? (selection.focusNode instanceof Element ? selection.focusNode : selection.focusNode.parentElement);
    if (box) return box instanceof Element ? box.getBoundingClientRect() : box;
  }
  return focused.getBoundingClientRect();
}

/**
 * Scrolls the page so the notice (kept in view at the top) does not cover where the user is
 * typing: the page moves down under it by what it would cover.
 */
function keepTypingClearOf(notice: HTMLElement) {
  if (notice.contains(document.activeElement)) return;
  const spot = typingSpot();
  if (!spot || spot.height === 0) return;
  const cover = notice.getBoundingClientRect();
  if (spot.right <= cover.left || spot.left >= cover.right) return;
  if (spot.bottom <= cover.top || spot.top >= cover.bottom + CLEARANCE) return;
  window.scrollBy({ top: spot.top - cover.bottom - CLEARANCE });
}

/**
 * While the notice shows: the field being typed in is kept clear of it (when it appears, when
 * focus moves, on every keystroke), and the page knows its height, so that what focus or a link
 * scrolls to lands below it (NOTICE_HEIGHT_VARIABLE).
 */
function useKeepClear(notice: HTMLElement | null) {
  useEffect(() => {
    if (!notice) return;
    const root = document.documentElement;
    const keepClear = () => keepTypingClearOf(notice);
    const resized = new ResizeObserver(() => {
      root.style.setProperty(NOTICE_HEIGHT_VARIABLE, `${notice.offsetHeight + CLEARANCE}px`);
      keepClear();
    });
    resized.observe(notice);
    document.addEventListener("focusin", keepClear);
    document.addEventListener("input", keepClear, true);
    return () => {
      resized.disconnect();
      document.removeEventListener("focusin", keepClear);
      document.removeEventListener("input", keepClear, true);
      root.style.removeProperty(NOTICE_HEIGHT_VARIABLE);
    };
  }, [notice]);
}

/** The element notices go into (ConsoleShell's), once the page is there; null before, or outside the console's shell. */
function useNoticeSlot(): HTMLElement | null {
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  useEffect(() => setSlot(document.getElementById(NOTICE_SLOT_ID)), []);
  return slot;
}

/**
 * Watches the server's reachability for the whole console: the router's page fetches wait
 * for the server (UnreachableStore), TanStack Query counts as online only while the server
 * answers, and a banner at the top of the page says when it does not.
 */
export function UnreachableWatch() {
  useEffect(() => {
    const unguard = guardRouterFetches();
    const unwatch = watchConnectivity();
    // Saves that found the server out of reach wait for it here (lib/client/pending-saves.ts).
    connectReachability({ reportUnreachable, whenReachable });
    // Online for TanStack Query is "the server answers", not only "the browser has a network":
    // queries pause while it does not, and go on (refetching what is stale) when it does again.
    onlineManager.setEventListener((setOnline) => reachability.subscribe(() => setOnline(!reachability.get().unreachable)));
    return () => {
      unguard();
      unwatch();
    };
  }, []);
  const { unreachable } = useReachability();
  const saves = usePendingSaves().length;
  const slot = useNoticeSlot();
  const [notice, setNotice] = useState<HTMLElement | null>(null);
  useKeepClear(unreachable ? notice : null);
  if (!unreachable || !slot) return null;
  // In the notices' place at the top of the page (ConsoleShell): it takes its own room there,
  // stays in view below the header, and keeps clear of the field being typed in.
  return createPortal(
    <div ref={setNotice}>
      <UnreachableNotice
        detail={`The console lost its connection to the server. ${saves > 0 ? savesWaiting(saves) : "Pages load as soon as the server answers; nothing you typed is lost."}`}
        actions={
          saves > 0 && (
            <button type="button" style={cancelButton} className="mantine-focus-auto" onClick={cancelPendingSaves}>
              {saves === 1 ? "Cancel the save" : `Cancel the ${plural(saves, "save")}`}
            </button>
          )
        }
      />
    </div>,
    slot,
  );
}

const cancelButton: CSSProperties = {
  ...plainButton("xs"),
  background: "var(--mantine-color-default)",
  color: "var(--mantine-color-default-color)",
  border: "1px solid var(--mantine-color-default-border)",
};

/** What the banner says of saves waiting for the server (the forms that sent them say "Saving when the server is back…"). */
const savesWaiting = (count: number) =>
  `${count === 1 ? "Your save is" : `${plural(count, "save")} are`} sent again as soon as the server answers, and done once; nothing you typed is lost.`;

const page: CSSProperties = { paddingBlock: "var(--mantine-spacing-xl)", maxWidth: 640 };

/** Recoveries tried in the last minute; a page that fails again right after one offers a reload instead. */
const recoveries: number[] = [];

/**
 * The error boundary's page for a page that could not be loaded for want of the server: it
 * loads the page again by itself once the server answers, in the same document.
 */
export function UnreachablePage({ reset, exhausted }: { reset: () => void; exhausted: ReactNode }) {
  const router = useRouter();
  const { unreachable } = useReachability();
  const recent = recoveries.filter((at) => Date.now() - at < 60_000).length;
  useEffect(() => {
    if (recent >= 2) return;
    // The store may not know yet (a script failed while the data was cached): it starts checking.
    reportUnreachable();
    let live = true;
    void whenReachable().then(() => {
      if (!live) return;
      recoveries.push(Date.now());
      // Fetch the page's payload afresh and render it again.
      startTransition(() => {
        router.refresh();
        reset();
      });
    });
    return () => {
      live = false;
    };
  }, [recent, reset, router]);
  // Twice recovered and failing again: parts of the page will not load this way.
  if (recent >= 2 && !unreachable) return exhausted;
  return (
    <div style={page}>
      <UnreachableNotice
        headingLevel={1}
        detail="This page could not be loaded: the console lost its connection to the server. It loads as soon as the server answers."
      />
    </div>
  );
}
