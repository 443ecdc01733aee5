"use client";
import { type ComponentType, useEffect, useState } from "react";

/**
 * A component whose code loads right after the page instead of with it (first-load budget),
 * at once rather than on first use: null until it is there, and null for good when it could
 * not be loaded (the server went away meanwhile), where the caller's plain fallback stays.
 */
export function useLoaded<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> | null {
  const [Component, setComponent] = useState<ComponentType<P> | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once; `load` is a new closure every render.
  useEffect(() => {
    let live = true;
    load().then(
      (c) => live && setComponent(() => c),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return Component;
}
