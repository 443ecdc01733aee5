"use client";
import { useEffect } from "react";

/**
 * Marks the document once React has taken the server-rendered page over
 * (`<html data-hydrated>`). Nothing in the console reads it: browser tests wait for it after
 * loading a page, so their first click reaches a handler, not server-rendered markup.
 */
export function HydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return null;
}
