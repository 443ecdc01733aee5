import type { CSSProperties } from "react";

// Unknown pages (the API's unknown paths answer problem+json instead).
//
// Plain elements styled with Mantine's CSS variables (its styles.css, loaded by the root
// layout), no Mantine components: this boundary belongs to every page's first load, and
// Mantine's components here shipped a second copy of Mantine's core to every page.
const container: CSSProperties = {
  maxWidth: "calc(45rem * var(--mantine-scale))", // Container size="sm"
  marginInline: "auto",
  paddingInline: "var(--mantine-spacing-md)",
  paddingBlock: "var(--mantine-spacing-xl)",
  display: "flex",
  flexDirection: "column",
  gap: "var(--mantine-spacing-md)",
};
const heading: CSSProperties = {
  margin: 0,
  fontFamily: "var(--mantine-font-family-headings)",
  fontWeight: "var(--mantine-h1-font-weight)" as CSSProperties["fontWeight"],
  fontSize: "var(--mantine-h1-font-size)",
  lineHeight: "var(--mantine-h1-line-height)",
};
const text: CSSProperties = { margin: 0, fontSize: "var(--mantine-font-size-md)", lineHeight: "var(--mantine-line-height)" };
const link: CSSProperties = { ...text, color: "var(--mantine-color-anchor)" };

export default function NotFound() {
  return (
    <div style={container}>
      <h1 style={heading}>Page not found</h1>
      <p style={text}>There is no page at this address.</p>
      <a href="/" style={link} className="mantine-focus-auto">
        Go to the console
      </a>
    </div>
  );
}
