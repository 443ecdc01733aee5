import "server-only";
import { ETAG_HEADER, IF_MATCH_HEADER, IF_NONE_MATCH_HEADER, matchesWeakly, parseEntityTags } from "@/lib/contracts/conditional-header";
import type { Endpoint } from "@/lib/contracts/endpoint";
import { entityTag, textEntityTag } from "@/lib/platform/entity-tag";
import type { Audit } from "@/lib/services/context";
import { conditionalWrite, type Written } from "@/lib/services/preconditions";
import { textResponse } from "./text-response";

// Conditional requests (CONTRACT §19, RFC 9110 §13): reads answer their representation's tag
// and 304 to a client that holds it; writes to one resource take If-Match / If-None-Match: *.

/**
 * A read's answer with its tag: 304 with no body when `If-None-Match` names it (weakly; `*`
 * matches any), else 200 with the text.
 */
export function answerTagged(request: Request, text: string, headers: Record<string, string>): Response {
  const tag = textEntityTag(text);
  const held = parseEntityTags(request.headers.get(IF_NONE_MATCH_HEADER));
  const { "content-type": _type, ...rest } = headers;
  if (held !== null && matchesWeakly(held, tag)) return new Response(null, { status: 304, headers: { ...rest, [ETAG_HEADER]: tag } });
  return textResponse(text, { status: 200, headers: { ...headers, [ETAG_HEADER]: tag } }, request);
}

/**
 * The precondition a request to `endpoint` states, and the audit that checks it (when the verb did
 * not) and keeps what was written. An endpoint that is not a conditional write ignores the headers,
 * as hindclaw's clients send none.
 */
export function writePrecondition(endpoint: Endpoint, request: Request, audit: Audit) {
  if (!endpoint.conditional) return { precondition: undefined, audit, written: {} as Written };
  return conditionalWrite(audit, {
    ifMatch: request.headers.get(IF_MATCH_HEADER),
    ifNoneMatch: endpoint.conditional === "if-match-or-create" ? request.headers.get(IF_NONE_MATCH_HEADER) : null,
  });
}

/**
 * The `ETag` of a conditional write's answer: the resource's new tag, when it still exists. When
 * the answer is that resource, the tag of the text already encoded (not encoded again).
 */
export function writtenTagHeaders(written: Written, answer?: { payload: unknown; text: string }): Record<string, string> {
  if (written.after === undefined || written.after === null) return {};
  return { [ETAG_HEADER]: answer && answer.payload === written.after ? textEntityTag(answer.text) : entityTag(written.after) };
}
