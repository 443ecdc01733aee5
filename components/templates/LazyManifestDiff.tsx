"use client";
import { lazy } from "react";

/**
 * ManifestDiff loaded the first time a page shows one: the line diff (and the `diff` library under
 * it) stays out of the first load of pages where a diff opens on request. Render it inside a
 * Suspense boundary.
 */
export const LazyManifestDiff = lazy(() => import("./ManifestDiff").then((m) => ({ default: m.ManifestDiff })));
