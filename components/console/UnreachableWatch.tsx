"use client";
import { onlineManager } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type CSSProperties, type ReactNode, startTransition, useEffect } from "react";
import { cancelPendingSaves, connectReachability, usePendingSaves } from "@/lib/client/resend";
import { plural } from "@/lib/shared/plural";
import { plainButton } from "./plain-styles";
import { UnreachableNotice } from "./UnreachableNotice";
import { guardRouterFetches, reachability, reportUnreachable, useReachability, watchConnectivity, whenReachable } from "./UnreachableStore";

// What the console does about a server out of reach, loaded right after a console page
// (ConsoleProviders and the error boundary import it), not as part of its first load.

export { reportUnreachable };

// Over the page, below the header and above dialogs (Mantine's modals sit at z-index 200):
// what the user was doing stays in view, and the notice says why it does not go on.
const place: CSSProperties = {
  position: "fixed",
  top: "calc(56px + var(--mantine-spacing-md))",
  left: "50%",
  transform: "translateX(-50%)",
  width: "min(32rem, calc(100vw - 2 * var(--mantine-spacing-md)))",
  zIndex: 500,
};

/**
 * Watches the server's reachability for the whole console: the router's page fetches wait
 * for the server (UnreachableStore), TanStack Query counts as online only while the server
 * answers, and a banner says when it does not.
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
  if (!unreachable) return null;
  return (
    <div style={place}>
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
    </div>
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
