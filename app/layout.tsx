import "@mantine/core/styles.css";
// After Mantine's styles: contrast and focus overrides for both colour schemes.
import "./globals.css";
import { ColorSchemeScript, MantineProvider, mantineHtmlProps } from "@mantine/core";
import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { theme } from "./theme";

export const metadata: Metadata = {
  title: { default: "Bank Templates Console", template: "%s · Bank Templates Console" },
  description: "Register template marketplaces, install bank templates, write bank policies and create banks.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // proxy.ts allows scripts by a per-request nonce (Content-Security-Policy); Mantine's
  // colour-scheme script is inline, so it carries the nonce too.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang="en" {...mantineHtmlProps}>
      <head>
        <ColorSchemeScript defaultColorScheme="auto" nonce={nonce} />
      </head>
      <body>
        <MantineProvider theme={theme} defaultColorScheme="auto">
          {children}
        </MantineProvider>
      </body>
    </html>
  );
}
