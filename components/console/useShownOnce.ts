"use client";
import { useState } from "react";
import type { DiscardQuestion } from "@/components/forms/discard";

/**
 * What a dialog that shows a secret once keeps (a new API key's token, a webhook's secret): what
 * was made, once the answer came (its secret null in an answer sent again), and whether the user
 * said they have the secret; while one shows that they have not, the dialog is `locked` with
 * `question` (FormModal asks it before anything closes or leaves).
 */
export function useShownOnce<M extends object>(secretOf: (made: M) => string | null, question: DiscardQuestion) {
  const [made, setMade] = useState<M | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  return {
    made,
    show: (answer: M) => setMade(answer),
    confirmed,
    setConfirmed,
    locked: made !== null && secretOf(made) && !confirmed ? question : undefined,
    /** The dialog closes: nothing made, nothing confirmed, for the next time it opens. */
    reset: () => {
      setMade(null);
      setConfirmed(false);
    },
  };
}
