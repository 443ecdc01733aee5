/**
 * Answers made of text, and how the production server's fast path (lib/server/api-fast-path.cjs,
 * under the same registered symbols) sends them without a body stream. A Response's body stream
 * costs more to make than the rest of the Response (about 17 µs of a list page's CPU) and as much
 * again to read back into bytes; the fast path writes the text to the socket as it is.
 * - The fast path marks its Request with TEXT_ANSWERS: an answer to it may carry only its text
 *   (RESPONSE_TEXT) and no body.
 * - Any other caller (Next's router, which knows nothing of this) gets an ordinary Response whose
 *   body is the text, and which carries the text too.
 * Both send the same bytes (tests/api-fast-path.test.ts compares them for every operation).
 */
const RESPONSE_TEXT = Symbol.for("bank-templates.response-text");
const TEXT_ANSWERS = Symbol.for("bank-templates.text-answers");

/** A Response of `text` for `request`: with no body stream when the fast path asked for text answers. */
export function textResponse(text: string, init: ResponseInit, request?: Request): Response {
  const textOnly = request !== undefined && (request as { [TEXT_ANSWERS]?: boolean })[TEXT_ANSWERS] === true;
  const response = new Response(textOnly ? null : text, init);
  Object.defineProperty(response, RESPONSE_TEXT, { value: text });
  return response;
}

/** The text a Response was made of by textResponse, or undefined. */
export const responseText = (response: Response): string | undefined => (response as { [RESPONSE_TEXT]?: string })[RESPONSE_TEXT];
