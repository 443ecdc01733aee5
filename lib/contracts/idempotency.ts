import { z } from "zod";
import { IDEMPOTENCY_KEY_HEADER } from "./idempotency-header";

/**
 * The header's value; documented on every write operation as one reusable parameter. A value
 * outside it answers 400 `invalid-idempotency-key` before anything is read or written.
 */
export const IdempotencyKey = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/);

/** The header as the OpenAPI document names it: one reusable parameter (components.parameters.IdempotencyKey). */
export const IdempotencyKeyParameter = IdempotencyKey.optional().meta({
  description:
    "Makes this write happen once: the same key from the same caller within 24 hours answers the first answer again (status, body, content-type; a fresh X-Request-Id and `Idempotent-Replayed: true`) without writing; with another method, path or body it answers 422 `idempotency-key-reused`; while the first request runs, 409 `idempotency-key-in-use`. 1-128 characters of A-Z, a-z, 0-9, `.`, `_`, `:`, `-`; use a new random UUID per logical write and the same one on its retries.",
  example: "3f1c9a52-8d0e-4b7e-9c61-2f5e0b6d7a14",
  param: { in: "header", name: IDEMPOTENCY_KEY_HEADER, id: "IdempotencyKey" },
});
