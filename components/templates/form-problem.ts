"use client";
import { useCallback, useState } from "react";
import { ApiProblem, describeError, type ProblemFieldError } from "@/lib/client/problem";

/**
 * A template form's refusal spread over the form: errors at the metadata fields they name,
 * `manifest.…` errors for the manifest editor, and the detail as a form-level message
 * when no field of the form was named. A 409 for a taken id goes to `conflictField`.
 */
export function useTemplateFormProblem(fields: readonly string[], conflictField?: string) {
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [otherError, setOtherError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setProblem(null);
    setOtherError(null);
    try {
      return await action();
    } catch (error) {
      if (error instanceof ApiProblem) setProblem(error);
      else setOtherError(describeError(error));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);

  const isConflict = problem?.status === 409 && conflictField !== undefined && problem.errors.length === 0;
  const fieldError = (path: string): string | undefined =>
    isConflict && path === conflictField ? problem!.detail : problem?.fieldError(path);
  const manifestErrors: ProblemFieldError[] = problem?.errors.filter((e) => e.path === "manifest" || e.path.startsWith("manifest.") || e.path.startsWith("manifest[")) ?? [];
  const namesAField =
    isConflict || manifestErrors.length > 0 || (problem?.errors.some((e) => fields.some((f) => e.path === f || e.path.startsWith(`${f}[`))) ?? false);
  return {
    busy,
    submit,
    reset: () => (setProblem(null), setOtherError(null)),
    fieldError,
    manifestErrors,
    formError: otherError ?? (problem && !namesAField ? problem.detail : null),
  };
}
