"use client";
import { type ReactElement, type ReactNode, Suspense, useEffect, useRef, useState } from "react";

// Mantine's Menu (Popover, floating-ui, focus trap) is ~20 kB or more of gzipped JavaScript
// that no page needs before someone opens a menu. So a menu's button comes first, the menu's
// code is fetched when the pointer or focus reaches the button, and the menu (with its own
// copy of the button) takes the button's place on the first press.

interface PressProps {
  "aria-expanded": false;
  onPointerEnter: () => void;
  onFocus: () => void;
  onClick: () => void;
}

/** The button (`button(props)`) until it is first pressed, then `menu`, loaded by `preload`. */
export function LazyMenu({
  preload,
  button,
  menu,
}: {
  preload: () => unknown;
  button: (props: PressProps) => ReactElement;
  menu: ReactNode;
}) {
  const [pressed, setPressed] = useState(false);
  const shown = button({
    "aria-expanded": false,
    onPointerEnter: () => void preload(),
    onFocus: () => void preload(),
    onClick: () => setPressed(true),
  });
  if (!pressed) return shown;
  return <Suspense fallback={shown}>{menu}</Suspense>;
}

/**
 * For the menu that took its button's place: its button (`target`) focused and the menu
 * open at once, so the press is not lost and closing the menu returns focus to the button.
 */
export function useOpenedOnArrival() {
  const target = useRef<HTMLButtonElement>(null);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    target.current?.focus();
    setOpened(true);
  }, []);
  return { target, opened, setOpened };
}
