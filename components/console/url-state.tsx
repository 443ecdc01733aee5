"use client";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import type { ComponentType } from "react";

/**
 * A list page whose tab, search, filters and page live in the URL (nuqs): reload and Back/Forward
 * show the same list. The adapter wraps each such page rather than the console layout, so pages
 * without URL state (a bank, the template editor) do not load its code: every page has a
 * first-load budget.
 */
export function withUrlState<P extends object>(Page: ComponentType<P>, { serverReadsQuery = false } = {}) {
  // A page whose server part reads the query (`?scope=`, `?into=`) is keyed by it in Next's
  // router. A shallow URL write leaves the router's saved tree behind the URL; Back to such an
  // entry after a reload refetches the page, and a change made before that answer lands is lost
  // to the router's fallback load of the entry's URL. Such pages write through the router.
  const defaultOptions = serverReadsQuery ? { shallow: false } : undefined;
  function UrlStatePage(props: P) {
    return (
      <NuqsAdapter defaultOptions={defaultOptions}>
        <Page {...props} />
      </NuqsAdapter>
    );
  }
  UrlStatePage.displayName = `withUrlState(${Page.displayName ?? Page.name})`;
  return UrlStatePage;
}
