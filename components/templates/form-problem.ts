"use client";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import type { ManifestCheck, ParsedJson } from "@/lib/client/hooks/manifests";
import type { FieldError } from "@/lib/contracts/problem-schema";
import { plural } from "@/lib/shared/plural";

const isManifestPath = (path: string) => path === "manifest" || path.startsWith("manifest.") || path.startsWith("manifest[");

/**
 * useFormSubmit for template forms: besides the metadata fields, `manifest.…` errors go to
 * the manifest editor, and a 409 without field errors to `conflictField`.
 */
export function useTemplateFormProblem(fields: readonly string[], conflictField?: string) {
  // `manifest` is a field of its own here: its errors go to the editor, not to the form's sentence.
  const form = useFormSubmit([...fields, "manifest"], conflictField ? { statusFields: { 409: conflictField } } : {});
  const manifestErrors: FieldError[] = form.problem?.errors.filter((e) => isManifestPath(e.path)) ?? [];
  return {
    busy: form.busy,
    submit: form.submit,
    reset: form.reset,
    fieldError: form.fieldError,
    manifestErrors,
    formError: form.formError,
    waiting: form.waiting,
    cancelWaiting: form.cancelWaiting,
  };
}

/**
 * What keeps Save (or Create) off, in words ("the template needs a name"); none when nothing
 * does. Shown beside the button, so a greyed-out button is never a riddle.
 */
export function saveBlockers(name: string, parsed: ParsedJson, check: ManifestCheck): string[] {
  const blockers: string[] = [];
  if (name.trim() === "") blockers.push("the template needs a name");
  if (!parsed.ok) blockers.push(parsed.empty ? "the manifest is empty" : "the manifest is not valid JSON");
  else if (check.state === "checked" && !check.valid) {
    blockers.push(`the manifest has ${plural(check.errors.length, "problem")} to fix`);
  }
  return blockers;
}

/** "Save is off: the template needs a name and the manifest is not valid JSON." */
export const blockedSentence = (action: string, blockers: string[]) =>
  `${action} is off: ${blockers.length > 1 ? `${blockers.slice(0, -1).join(", ")} and ${blockers.at(-1)}` : blockers[0]}.`;
