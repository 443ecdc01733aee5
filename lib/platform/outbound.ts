import { badGateway, DomainError, gatewayTimeout } from "@/lib/contracts/errors";
import { causeCodes } from "@/lib/shared/cause-chain";

/** Shared by the clients that call other servers (marketplaces, Hindsight) and by request bodies. */

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);

/** The first `code` on the error or on one it wraps (undici wraps socket errors in `cause`). */
function networkErrorCode(error: unknown): string | null {
  return causeCodes(error)[0] ?? null;
}

// Only the code reaches a message: socket errors can carry addresses or other detail we do not echo.
function unreachableReason(code: string | null): string {
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "its host name does not resolve";
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return "the connection was closed";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "the host is unreachable";
    default:
      if (code?.startsWith("ERR_TLS") || code?.includes("CERT")) return `TLS failed (${code})`;
      return code ? `network error ${code}` : "network error";
  }
}

type ByteSource = AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;

/** Web streams are async-iterable in Node, but not in the DOM typings; read them through a reader. */
async function* chunksOf(body: ByteSource): AsyncIterable<Uint8Array> {
  if (Symbol.asyncIterator in body) return yield* body;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * Reads a body to the end, giving up as soon as it passes `limit` bytes (the stream is
 * abandoned, not drained) and throwing what `tooLarge` makes.
 */
export async function readCapped(body: ByteSource, limit: number, tooLarge: () => Error): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunksOf(body)) {
    total += chunk.byteLength;
    if (total > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A URL as messages may show it: never its user info (credentials) or fragment; without its
 * query when `withQuery` is false (a configured base URL's query may hold a key).
 */
export function displayUrl(url: URL | string, { withQuery = true } = {}): string {
  const copy = new URL(url);
  copy.username = "";
  copy.password = "";
  copy.hash = "";
  if (!withQuery) copy.search = "";
  return copy.toString();
}

/**
 * What a failed exchange with another server answers: the DomainError it already is, a 504 when
 * time ran out (`timedOut`, or a timeout code from the socket), else a 502 naming why `where`
 * could not be reached.
 */
export function upstreamFailure(error: unknown, where: string, timeoutMs: number, timedOut: boolean): DomainError {
  if (error instanceof DomainError) return error;
  const code = networkErrorCode(error);
  if (timedOut || (code !== null && TIMEOUT_CODES.has(code))) return gatewayTimeout(`${where} did not answer within ${timeoutMs} ms.`);
  return badGateway(`${where} could not be reached: ${unreachableReason(code)}.`);
}
