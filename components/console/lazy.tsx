"use client";
import { type ComponentType, lazy, type ReactNode, Suspense, useEffect, useState } from "react";

// Code splitting for the console's pages. Every console page loads the same shell, and
// dialogs, drawers and editors brought along Mantine's Modal, Combobox, Popover and
// floating-ui; what a page does not show when it first appears loads when it is needed.

/** Runs `run` once, after the Suspense boundary around it has shown its content. */
function AfterMount({ run }: { run: () => void }) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount; `run` is a new closure every render.
  useEffect(run, []);
  return null;
}

/**
 * A dialog (or drawer) whose code loads the first time it opens. It is first rendered closed
 * (`closedProps`) and opened on the next render, so Mantine sees it open as it always did:
 * with its transition, and remembering what had focus to give it back on close.
 */
export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean,
  closedProps: (props: P) => P,
): ComponentType<P> {
  const Dialog = lazy(async () => ({ default: await load() }));
  function LazyDialog(props: P) {
    const [wanted, setWanted] = useState(false);
    const [ready, setReady] = useState(false);
    if (!wanted && isOpen(props)) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...(ready ? props : closedProps(props))} />
        <AfterMount run={() => setReady(true)} />
      </Suspense>
    );
  }
  return LazyDialog;
}

/** `lazyDialog` for the usual `opened` prop. */
export function lazyModal<P extends { opened: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazyDialog(
    load,
    (props) => props.opened,
    (props) => ({ ...props, opened: false }),
  );
}

/**
 * A part of a page shown only once the page's data has arrived (an editor, a catalog). Its
 * code starts loading as soon as the page runs in the browser, side by side with the data,
 * instead of holding up the page's first load; `fallback` (or `fallback(props)`) shows should
 * it still be loading. The server renders the part itself, so a page loaded afresh shows it
 * at once, and it becomes interactive when its code arrives.
 */
export function lazySection<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode | ((props: P) => ReactNode),
): ComponentType<P> {
  const loading = typeof window === "undefined" ? null : load();
  const Section = lazy(async () => ({ default: await (loading ?? load()) }));
  function LazySection(props: P) {
    return (
      <Suspense fallback={typeof fallback === "function" ? fallback(props) : fallback}>
        <Section {...props} />
      </Suspense>
    );
  }
  return LazySection;
}
