"use client";
import { type ChangeEvent, useCallback, useRef, useState } from "react";

/**
 * The values of a form's fields, with a reset to where they started (a dialog reopened
 * starts empty again) and whether any differs from there (`dirty`: edits that closing the
 * dialog would lose). `text(key)` wires a text input or textarea: its value and onChange;
 * `checkbox(key)` a switch or checkbox: checked and onChange.
 */
export function useFormValues<T extends Record<string, unknown>>(initial: T) {
  const start = useRef(initial);
  const [values, setValues] = useState<T>(initial);
  const set = useCallback(<K extends keyof T>(key: K, value: T[K]) => setValues((v) => ({ ...v, [key]: value })), []);
  const reset = useCallback(() => setValues(start.current), []);
  const text = <K extends { [P in keyof T]: T[P] extends string ? P : never }[keyof T]>(key: K) => ({
    value: values[key] as string,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(key, event.currentTarget.value as T[K]),
  });
  const checkbox = <K extends { [P in keyof T]: T[P] extends boolean ? P : never }[keyof T]>(key: K) => ({
    checked: values[key] as boolean,
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(key, event.currentTarget.checked as T[K]),
  });
  const dirty = Object.keys(values).some((key) => !Object.is(values[key], start.current[key]));
  return { values, set, reset, text, checkbox, dirty };
}
