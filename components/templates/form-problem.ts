"use client";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import type { ProblemFieldError } from "@/lib/client/problem";

const isManifestPath = (path: string) => path === "manifest" || path.startsWith("manifest.") || path.startsWith("manifest[");

/**
 * useFormSubmit for template forms: besides the metadata fields, `manifest.…` errors go to
 * the manifest editor, and a 409 without field errors to `conflictField`.
 */
export function useTemplateFormProblem(fields: readonly string[], conflictField?: string) {
  const form = useFormSubmit(fields, conflictField ? { statusFields: { 409: conflictField } } : {});
  const { problem } = form;
  const manifestErrors: ProblemFieldError[] = problem?.errors.filter((e) => isManifestPath(e.path)) ?? [];
  const namesAField =
    form.fieldError(conflictField ?? "") !== undefined ||
    manifestErrors.length > 0 ||
    (problem?.errors.some((e) => fields.some((f) => e.path === f || e.path.startsWith(`${f}[`))) ?? false);
  return {
    busy: form.busy,
    submit: form.submit,
    reset: form.reset,
    fieldError: form.fieldError,
    manifestErrors,
    formError: problem ? (namesAField ? null : problem.detail) : form.formError,
  };
}
