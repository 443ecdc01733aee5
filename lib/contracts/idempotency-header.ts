// No zod: the console's client (lib/client/api.ts) sends this header too.

/** The request header that makes a write happen once (CONTRACT §18). */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/** The header that marks an answer as the stored answer of an earlier request with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";

/** The methods a key applies to: the writes. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);
