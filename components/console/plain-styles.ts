import type { CSSProperties } from "react";

// Styles for plain elements in Mantine's look, for what must show without loading Mantine's
// components: the error boundary's messages (every console page's first load) and the
// "Can't reach the server" notice (nothing more may download by then).

/** A column of heading, text and button, left-aligned. */
export const plainColumn: CSSProperties = { display: "flex", flexDirection: "column", alignItems: "flex-start" };

/** A heading without Mantine's Title: no margin, the headings' font. */
export const plainHeading: CSSProperties = { margin: 0, fontFamily: "var(--mantine-font-family-headings)" };

/** Mantine's Text at `size`. */
export const plainText = (size: "sm" | "md"): CSSProperties => ({
  margin: 0,
  fontSize: `var(--mantine-font-size-${size})`,
  lineHeight: "var(--mantine-line-height)",
});

const BUTTON_SIZES = {
  xs: { height: "1.875rem", paddingInline: "0.875rem" },
  sm: { height: "2.25rem", paddingInline: "1.125rem" },
} as const;

/** Mantine's filled Button at `size` (give the element className "mantine-focus-auto" for its focus ring). */
export const plainButton = (size: keyof typeof BUTTON_SIZES): CSSProperties => ({
  height: `calc(${BUTTON_SIZES[size].height} * var(--mantine-scale))`,
  paddingInline: `calc(${BUTTON_SIZES[size].paddingInline} * var(--mantine-scale))`,
  border: 0,
  borderRadius: "var(--mantine-radius-default)",
  background: "var(--mantine-primary-color-filled)",
  color: "var(--mantine-color-white)",
  fontFamily: "inherit",
  fontSize: `var(--mantine-font-size-${size})`,
  fontWeight: 600,
  cursor: "pointer",
});
