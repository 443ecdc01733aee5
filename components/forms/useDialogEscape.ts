"use client";
import { useEffect, useRef, useState } from "react";

// Mantine's modals close on Escape from a listener on the window, every open one at once: in
// a dialog opened from another dialog (a new key from a service account's keys), Escape
// closed both, and with them a token not yet copied or edits not yet saved. A dialog using
// this hook answers Escape itself, and marks what has focus in it with the attribute Mantine
// reads to leave an Escape alone, so no other dialog closes.

const STOP = "data-mantine-stop-propagation";

/**
 * While `active`, Escape in the dialog around the returned ref's element calls `onEscape`
 * (nothing when absent) and closes no Mantine modal. Outside a dialog it does nothing.
 */
export function useDialogEscape(active: boolean, onEscape?: () => void) {
  const [node, setNode] = useState<HTMLElement | null>(null);
  const latest = useRef(onEscape);
  useEffect(() => {
    latest.current = onEscape;
  });
  useEffect(() => {
    const dialog = node?.closest<HTMLElement>('[role="dialog"]');
    if (!active || !dialog) return;
    const marked = new Set<Element>();
    const mark = (target: EventTarget | null) => {
      if (target instanceof Element && dialog.contains(target) && !target.hasAttribute(STOP)) {
        target.setAttribute(STOP, "true");
        marked.add(target);
      }
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.isComposing) return;
      // An open Select or menu closes its dropdown first; one marked by someone else keeps its Escape.
      const target = event.target instanceof Element ? event.target : null;
      if (target?.getAttribute("aria-expanded") === "true" || (target?.hasAttribute(STOP) && !marked.has(target))) return;
      latest.current?.();
    };
    const onFocusIn = (event: FocusEvent) => mark(event.target);
    mark(dialog);
    mark(document.activeElement);
    dialog.addEventListener("focusin", onFocusIn);
    dialog.addEventListener("keydown", onKeyDown);
    return () => {
      dialog.removeEventListener("focusin", onFocusIn);
      dialog.removeEventListener("keydown", onKeyDown);
      for (const element of marked) element.removeAttribute(STOP);
    };
  }, [active, node]);
  return setNode;
}
