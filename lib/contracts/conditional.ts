import { z } from "zod";
import { ETAG_HEADER, IF_MATCH_HEADER, IF_NONE_MATCH_HEADER } from "./conditional-header";

// Conditional requests in the OpenAPI document (CONTRACT §19): reusable parameters and the
// response header, documented on each operation that takes or answers them.

const EntityTagList = z.string().max(8192);

/** A read's `If-None-Match`: the tags the client holds; 304 when one is current. */
export const IfNoneMatchParameter = EntityTagList.optional().meta({
  description:
    "The ETag (or comma-separated ETags) of the version you hold: when one is current the answer is 304 with no body and the same ETag, else 200 with the resource. `*` matches any version.",
  example: '"q1u0mVJp8n4xb3TgQ7cY9wLrN2a"',
  param: { in: "header", name: IF_NONE_MATCH_HEADER, id: "IfNoneMatch" },
});

/** A write's `If-Match`: the version it was made from. */
export const IfMatchParameter = EntityTagList.optional().meta({
  description:
    "Write only if the resource is still at this version (its ETag from a read or an earlier write; several may be listed): otherwise 412 `precondition-failed`, with the current tag in `ETag`, and nothing is written. `*` requires only that the resource exists. Without it the write happens whatever the version.",
  example: '"q1u0mVJp8n4xb3TgQ7cY9wLrN2a"',
  param: { in: "header", name: IF_MATCH_HEADER, id: "IfMatch" },
});

/** A create-or-replace's `If-None-Match: *`: create only. */
export const IfNoneMatchCreateParameter = z
  .literal("*")
  .optional()
  .meta({
    description:
      "`*`: write only if the resource does not exist yet (create only); otherwise 412 `precondition-failed`, and nothing is written.",
    param: { in: "header", name: IF_NONE_MATCH_HEADER, id: "IfNoneMatchCreate" },
  });

/** The `ETag` header of an answer. */
export const ETagHeaders = z.object({
  [ETAG_HEADER]: z.string().meta({
    description:
      "The strong entity tag of the resource as this answer shows it (for a write, as it is now): send it as If-None-Match or If-Match.",
    example: '"q1u0mVJp8n4xb3TgQ7cY9wLrN2a"',
  }),
});
