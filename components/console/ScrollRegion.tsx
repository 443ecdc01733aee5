"use client";
import { type CSSProperties, type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import classes from "./ScrollRegion.module.css";

type RegionName = { label: string; labelledBy?: never } | { labelledBy: string; label?: never };

type ScrollRegionProps = RegionName & {
  /** A CSS length past which the region scrolls vertically instead of growing (a long diff). */
  maxHeight?: CSSProperties["maxHeight"];
  testId?: string;
  children: ReactNode;
};

/** Which sides of the region hold more than it shows, sideways. */
type Hidden = { start: boolean; end: boolean };

/**
 * Follows how far the region is scrolled sideways and how wide its content is: a region whose
 * content is wider than it says so with a shade on each side that holds more, so that a table
 * cut at the region's edge does not look like a table that ends there.
 */
function useHiddenSides(region: RefObject<HTMLElement | null>): Hidden {
  const [hidden, setHidden] = useState<Hidden>({ start: false, end: false });
  useEffect(() => {
    const box = region.current;
    if (!box) return;
    const measure = () => {
      const start = box.scrollLeft > 1;
      const end = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
      setHidden((was) => (was.start === start && was.end === end ? was : { start, end }));
    };
    const resized = new ResizeObserver(measure);
    resized.observe(box);
    for (const child of box.children) resized.observe(child);
    box.addEventListener("scroll", measure, { passive: true });
    measure();
    return () => {
      resized.disconnect();
      box.removeEventListener("scroll", measure);
    };
  }, [region]);
  return hidden;
}

/**
 * A box whose content may be larger than it (a wide table, a long diff), scrolled by the
 * browser itself: Mantine's ScrollArea brings floating-ui (~20 kB gzipped) into the first load
 * of every page using it. A keyboard scrolls only what it can focus, and a table or a diff
 * often holds nothing focusable (WCAG 2.1.1, axe scrollable-region-focusable): the box is a
 * tab stop with the console's focus ring, and a named region so a screen reader says what it is.
 * When its content is wider than it, a shade on the side with more shows that it scrolls
 * (`data-scrolls-sideways` on the frame around it).
 */
export function ScrollRegion({ label, labelledBy, maxHeight, testId, children }: ScrollRegionProps) {
  const region = useRef<HTMLElement>(null);
  const hidden = useHiddenSides(region);
  return (
    <div
      className={classes.frame}
      data-scrolls-sideways={hidden.start || hidden.end || undefined}
      data-more-start={hidden.start || undefined}
      data-more-end={hidden.end || undefined}
    >
      {/* A named section is a region landmark. */}
      <section
        ref={region}
        aria-label={label}
        aria-labelledby={labelledBy}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region must be focusable to be scrolled by keyboard; this tab stop is that region.
        tabIndex={0}
        className={classes.region}
        data-testid={testId}
        style={maxHeight === undefined ? undefined : { maxHeight }}
      >
        {children}
      </section>
    </div>
  );
}
