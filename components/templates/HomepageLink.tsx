"use client";
import { Anchor } from "@mantine/core";
import { IconExternalLink } from "@tabler/icons-react";

/** Only an http or https address is a link (the API checks it too: what a marketplace sent is input). */
const isWebAddress = (url: string) => /^https?:\/\//i.test(url);

/**
 * A template's home page (its `homepage_url`), opened in a new tab; nothing when it has none.
 * `name` says whose it is to a screen reader among several on a page.
 */
export function HomepageLink({ url, name }: { url: string | null; name: string }) {
  if (!url || !isWebAddress(url)) return null;
  return (
    <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm" aria-label={`Home page of ${name} (opens in a new tab)`}>
      Home page <IconExternalLink size={12} aria-hidden style={{ verticalAlign: "-1px" }} />
    </Anchor>
  );
}
