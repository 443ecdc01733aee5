"use client";
import type { CSSProperties, ReactNode } from "react";
import { plainButton, plainColumn, plainHeading, plainText } from "@/components/console/plain-styles";
import { useLoaded } from "@/components/console/useLoaded";

// A console page that failed to render: say so inside the shell, and offer a retry. When it
// failed for want of the server (a script or payload that did not arrive), it says that
// instead and loads the page again by itself once the server answers, without a reload.
//
// Plain elements styled with Mantine's CSS variables (plain-styles.ts), no Mantine components:
// this boundary belongs to every console page's first load, and Mantine's Button and Title
// here shipped a second copy of them (~2.4 kB gzipped) to every page. The unreachable page's code is loaded
// after the page (ConsoleProviders loads it anyway), for the same reason.
const box: CSSProperties = {
  ...plainColumn,
  gap: "var(--mantine-spacing-md)",
  paddingBlock: "var(--mantine-spacing-xl)",
  maxWidth: 560,
};
const heading: CSSProperties = {
  ...plainHeading,
  fontWeight: "var(--mantine-h2-font-weight)" as CSSProperties["fontWeight"],
  fontSize: "var(--mantine-h2-font-size)",
  lineHeight: "var(--mantine-h2-line-height)",
};
const text = plainText("md");
const button = plainButton("sm");

function Message({ title, children, action, onAction }: { title: string; children: ReactNode; action: string; onAction: () => void }) {
  return (
    <div style={box} role="alert">
      <h1 style={heading}>{title}</h1>
      <p style={text}>{children}</p>
      <button type="button" style={button} className="mantine-focus-auto" onClick={onAction}>
        {action}
      </button>
    </div>
  );
}

/**
 * Whether the page failed for want of the server: a script chunk or a payload that did not
 * arrive (the server stopped, the network went away). Anything else is a fault to report.
 */
function isUnreachable(error: Error): boolean {
  return (
    error.name === "ChunkLoadError" ||
    /failed to fetch|load failed|networkerror|loading (css )?chunk|failed to load chunk|connection closed/i.test(error.message)
  );
}

const reload = () => window.location.reload();

function Unreachable({ reset }: { reset: () => void }) {
  // Not loaded either: the plain message below stays, with its button.
  const Page = useLoaded(() => import("@/components/console/UnreachableWatch").then((m) => m.UnreachablePage));
  if (Page) {
    const exhausted = (
      <Message title="This page could not be loaded" action="Reload" onAction={reload}>
        The server answers again, but parts of the page did not arrive. Reload the page to load it afresh.
      </Message>
    );
    return <Page reset={reset} exhausted={exhausted} />;
  }
  return (
    <Message title="Can't reach the server" action="Try again" onAction={reset}>
      This page could not be loaded: the console lost its connection to the server.
    </Message>
  );
}

export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  if (isUnreachable(error)) return <Unreachable reset={reset} />;
  return (
    <Message title="This page could not be shown" action="Try again" onAction={reset}>
      Something went wrong on our side. Try again; if it keeps happening, tell an administrator.
    </Message>
  );
}
