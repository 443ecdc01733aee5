// No Node imports: proxy.ts uses this too.

export const REQUEST_ID_HEADER = "x-request-id";
const WELL_FORMED = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's X-Request-Id when well formed (CONTRACT §11), else a fresh one. */
export function requestIdFor(headers: Headers): string {
  const incoming = headers.get(REQUEST_ID_HEADER);
  return incoming && WELL_FORMED.test(incoming) ? incoming : crypto.randomUUID();
}
