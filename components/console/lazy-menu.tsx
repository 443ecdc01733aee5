"use client";
import { type ReactElement, type ReactNode, Suspense, useState } from "react";

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
