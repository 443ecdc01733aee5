"use client";
import type { ComponentProps } from "react";
import { useHydrated } from "@/components/console/useHydrated";

/**
 * A form's fields, grouped without the browser's fieldset frame, and disabled until the page is
 * hydrated (what is typed earlier would be reset by React) as well as when `disabled`.
 */
export function FormFieldset({ disabled = false, style, ...props }: ComponentProps<"fieldset">) {
  const hydrated = useHydrated();
  return <fieldset {...props} disabled={disabled || !hydrated} style={{ border: 0, padding: 0, margin: 0, minWidth: 0, ...style }} />;
}
