"use client";
import { type CSSProperties, type ReactNode, useEffect, useState } from "react";
import { plainButton, plainColumn, plainHeading, plainText } from "./plain-styles";
import { checkNow, useReachability } from "./UnreachableStore";

// "Can't reach the server", as the console says it wherever it finds out: the banner over
// every page and the error boundary's page (UnreachableWatch). Plain elements in Mantine's
// colours (plain-styles.ts), like the error boundary's own messages: nothing here may need
// another download.

const box: CSSProperties = {
  ...plainColumn,
  gap: "var(--mantine-spacing-xs)",
  padding: "var(--mantine-spacing-md)",
  border: "1px solid var(--mantine-color-red-outline)",
  borderRadius: "var(--mantine-radius-md)",
  background: "var(--mantine-color-body)",
  boxShadow: "var(--mantine-shadow-md)",
  color: "var(--mantine-color-text)",
};
const heading: CSSProperties = {
  ...plainHeading,
  fontSize: "var(--mantine-font-size-lg)",
  fontWeight: 700,
  color: "var(--mantine-color-red-text)",
};
const text = plainText("sm");
const button = plainButton("xs");

/** Seconds until the next automatic check, counting down. */
function useSecondsUntil(at: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, [at]);
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

const buttons: CSSProperties = { display: "flex", flexWrap: "wrap", gap: "var(--mantine-spacing-xs)" };

/** The server is out of reach: what that means, when the console tries again, Retry, and `actions` beside it. */
export function UnreachableNotice({ detail, headingLevel = 2, actions }: { detail: string; headingLevel?: 1 | 2; actions?: ReactNode }) {
  const { checking, nextCheckAt } = useReachability();
  const seconds = useSecondsUntil(nextCheckAt);
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <div style={box} role="alert" data-testid="server-unreachable">
      <Heading style={heading}>Can&apos;t reach the server</Heading>
      <p style={text}>{detail}</p>
      <p style={text} aria-live="off">
        {checking || seconds === null ? "Trying again…" : `Trying again in ${seconds} s.`}
      </p>
      <div style={buttons}>
        <button type="button" style={button} className="mantine-focus-auto" onClick={() => void checkNow()} disabled={checking}>
          Retry
        </button>
        {actions}
      </div>
    </div>
  );
}
