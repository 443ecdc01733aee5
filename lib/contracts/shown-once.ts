import { z } from "zod";

/**
 * The mark of an answer's field that holds a secret shown once (CONTRACT §19): an API key's token,
 * a webhook's secret. Such a secret is kept nowhere in clear, not even in the answer an
 * Idempotency-Key replays (§18): a replay answers the field null. Marking the field in the
 * endpoint's response schema is all an endpoint does; the idempotency store reads the mark
 * (lib/http/idempotency.ts) and the OpenAPI document shows it as `x-shown-once`.
 */
const SHOWN_ONCE = "x-shown-once";

declare module "zod" {
  interface GlobalMeta {
    /** The field holds a secret shown once: null in an idempotent replay (shownOnce). */
    "x-shown-once"?: true;
  }
}

/**
 * A secret shown in this answer only; null in an idempotent replay of it. `description` says what
 * it is, and `whenNull` what a client does without it.
 */
export function shownOnce(description: string, whenNull: string) {
  return z
    .string()
    .nullable()
    .meta({
      description: `${description} Shown in this answer only: an idempotent replay of it (\`Idempotent-Replayed: true\`) answers null, as the secret is stored nowhere in clear. ${whenNull}`,
      [SHOWN_ONCE]: true,
    });
}

/** The top-level fields of an answer schema that hold a secret shown once. */
export function shownOnceFields(schema: z.ZodType | undefined): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>)
    .filter(([, field]) => field.meta()?.[SHOWN_ONCE] === true)
    .map(([name]) => name);
}
