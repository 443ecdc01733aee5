"use client";
import { useCallback, useState } from "react";
import { problemMessages } from "@/lib/client/messages";
import { ApiProblem, describeError } from "@/lib/client/problem";
import { useWaitingSaves } from "./useWaitingSaves";

interface FormSubmitOptions<F extends string> {
  /**
   * Refusals without `errors[]` that still belong to one field, by status: for bank
   * creation a 404 always means the template (`{404: "template"}`).
   */
  statusFields?: Partial<Record<number, F>>;
}

/**
 * Submits a form through the API and spreads a refusal over the form: each of the
 * problem's `errors[]` at the field its path names (409 and 422 alike), and one sentence
 * for what no field of this form shows.
 */
export function useFormSubmit<F extends string>(fields: readonly F[], { statusFields = {} }: FormSubmitOptions<F> = {}) {
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [otherError, setOtherError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // While this form's save waits for the server the submission is still under way: busy
  // stays true, and the form says so and offers Cancel.
  const { track, waiting, cancelWaiting } = useWaitingSaves();

  const reset = useCallback(() => {
    setProblem(null);
    setOtherError(null);
  }, []);

  const submit = useCallback(
    async <T>(action: () => Promise<T>): Promise<T | undefined> => {
      setBusy(true);
      reset();
      try {
        return await track(action);
      } catch (error) {
        if (error instanceof ApiProblem) setProblem(error);
        else setOtherError(describeError(error));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [reset, track],
  );

  // The console's one mapping from a problem to messages (lib/client/messages.ts).
  const messages = problemMessages(problem, fields, { statusFields });
  return {
    busy,
    submit,
    reset,
    /** The last refusal, for pages that say more about some statuses (403). */
    problem,
    fieldError: (field: F): string | undefined => messages.fields[field],
    formError: otherError ?? messages.form,
    /** The submission found the server out of reach and waits for it to send again. */
    waiting,
    /** Does not send the waiting save: the submission ends with "Save cancelled". */
    cancelWaiting,
  };
}
