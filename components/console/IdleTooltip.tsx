"use client";
import { cloneElement, type ReactElement, type ReactNode, type Ref, useEffect, useLayoutEffect, useRef, useState } from "react";

type TooltipComponent = typeof import("./MantineTooltip").Tooltip;

// Mantine's Tooltip sits on floating-ui (~20 kB gzipped with Popover's positioning); a tooltip
// only shows on hover or focus, so its code loads once the page is idle, for every IdleTooltip
// of the page at once, instead of with the page. Until then the element shows without it;
// it is labelled on its own (aria-label), the tooltip only repeats that label for the eye.
let loaded: TooltipComponent | null = null;
let loading: Promise<TooltipComponent> | null = null;
const loadTooltip = () => (loading ??= import("./MantineTooltip").then((m) => (loaded = m.Tooltip)));

/** Mantine's `<Tooltip label={label}>{children}</Tooltip>`, its code loaded when the page is idle. */
export function IdleTooltip({ label, children }: { label: ReactNode; children: ReactElement<{ ref?: Ref<HTMLElement> }> }) {
  const [Tooltip, setTooltip] = useState<TooltipComponent | null>(null);
  const target = useRef<HTMLElement>(null);
  const hadFocus = useRef(false);

  useEffect(() => {
    let cancelled = false;
    const show = (component: TooltipComponent) => {
      if (cancelled) return;
      hadFocus.current = document.activeElement !== null && document.activeElement === target.current;
      setTooltip(() => component);
    };
    if (loaded) {
      show(loaded);
      return () => {
        cancelled = true;
      };
    }
    const load = () => void loadTooltip().then(show);
    const idle = window.requestIdleCallback ? window.requestIdleCallback(load, { timeout: 2000 }) : window.setTimeout(load, 200);
    return () => {
      cancelled = true;
      if (window.cancelIdleCallback) window.cancelIdleCallback(idle);
      else window.clearTimeout(idle);
    };
  }, []);
  // Wrapping the element in the tooltip renders it anew: keep the focus on it.
  useLayoutEffect(() => {
    if (Tooltip && hadFocus.current) target.current?.focus();
  }, [Tooltip]);

  // Mantine's Tooltip merges the child's own ref with its own, so `target` stays attached.
  const child = cloneElement(children, { ref: target });
  return Tooltip ? <Tooltip label={label}>{child}</Tooltip> : child;
}
