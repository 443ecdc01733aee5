"use client";
import type { CSSProperties, ReactNode } from "react";
import classes from "./ScrollRegion.module.css";

type RegionName = { label: string; labelledBy?: never } | { labelledBy: string; label?: never };

type ScrollRegionProps = RegionName & {
  /** A CSS length past which the region scrolls vertically instead of growing (a long diff). */
  maxHeight?: CSSProperties["maxHeight"];
  testId?: string;
  children: ReactNode;
};

/**
 * A box whose content may be larger than it (a wide table, a long diff), scrolled by the
 * browser itself: Mantine's ScrollArea brings floating-ui (~20 kB gzipped) into the first load
 * of every page using it. A keyboard scrolls only what it can focus, and a table or a diff
 * often holds nothing focusable (WCAG 2.1.1, axe scrollable-region-focusable): the box is a
 * tab stop with the console's focus ring, and a named region so a screen reader says what it is.
 */
export function ScrollRegion({ label, labelledBy, maxHeight, testId, children }: ScrollRegionProps) {
  return (
    // A named section is a region landmark.
    <section
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
  );
}
