import "@mantine/core/styles.css";
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { ColorSchemeScript, MantineProvider, mantineHtmlProps } from "@mantine/core";
import { theme } from "./theme";

export const metadata: Metadata = {
  title: { default: "Bank Templates Console", template: "%s · Bank Templates Console" },
  description: "Register template marketplaces, install bank templates, write bank policies and create banks.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" {...mantineHtmlProps}>
      <head>
        <ColorSchemeScript defaultColorScheme="auto" />
      </head>
      <body>
        <MantineProvider theme={theme} defaultColorScheme="auto">{children}</MantineProvider>
      </body>
    </html>
  );
}
