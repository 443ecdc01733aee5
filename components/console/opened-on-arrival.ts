"use client";
import { useEffect, useRef, useState } from "react";

// Apart from LazyMenu: only the menus it loads use this, so it loads with them.

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
