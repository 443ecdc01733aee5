"use client";
import type { CSSProperties } from "react";

// A console page that failed to render: say so inside the shell, and offer a retry.
//
// Plain elements styled with Mantine's CSS variables, no Mantine components: this boundary
// belongs to every console page's first load, and Mantine's Button and Title here shipped a
// second copy of them (~2.4 kB gzipped) to every page.
const box: CSSProperties = {
  display: "flex",
  flexDirection: "column",
  alignItems: "flex-start",
  gap: "var(--mantine-spacing-md)",
  paddingBlock: "var(--mantine-spacing-xl)",
  maxWidth: 560,
};
const heading: CSSProperties = {
  margin: 0,
  fontFamily: "var(--mantine-font-family-headings)",
  fontWeight: "var(--mantine-h2-font-weight)" as CSSProperties["fontWeight"],
  fontSize: "var(--mantine-h2-font-size)",
  lineHeight: "var(--mantine-h2-line-height)",
};
const text: CSSProperties = { margin: 0, fontSize: "var(--mantine-font-size-md)", lineHeight: "var(--mantine-line-height)" };
// Mantine's filled Button, size sm.
const button: CSSProperties = {
  height: "calc(2.25rem * var(--mantine-scale))",
  paddingInline: "calc(1.125rem * var(--mantine-scale))",
  border: 0,
  borderRadius: "var(--mantine-radius-default)",
  background: "var(--mantine-primary-color-filled)",
  color: "var(--mantine-color-white)",
  fontFamily: "inherit",
  fontSize: "var(--mantine-font-size-sm)",
  fontWeight: 600,
  cursor: "pointer",
};

export default function ConsoleError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div style={box} role="alert">
      <h1 style={heading}>This page could not be shown</h1>
      <p style={text}>Something went wrong on our side. Try again; if it keeps happening, tell an administrator.</p>
      <button type="button" style={button} className="mantine-focus-auto" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
