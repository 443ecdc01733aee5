import "server-only";

/** next-auth's codes for "single sign-on failed", which a more precise reason replaces. */
const GENERIC_CODES = new Set(["OAuthSignin", "OAuthCallback", "Callback"]);

/**
 * next-auth's answer with its generic error code replaced by `code`: a redirect (its Location)
 * or, for a client that asked for JSON, the `url` it answers. Any other answer is left as it is.
 */
export async function withSignInError(response: Response, code: string): Promise<Response> {
  const location = response.headers.get("location");
  if (location !== null) {
    const replaced = replaceErrorCode(location, code);
    if (replaced === null) return response;
    const headers = new Headers(response.headers);
    headers.set("location", replaced);
    return new Response(response.body, { status: response.status, headers });
  }
  if (!response.headers.get("content-type")?.includes("application/json")) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { url?: unknown } | null;
  const replaced = typeof body?.url === "string" ? replaceErrorCode(body.url, code) : null;
  if (replaced === null) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...body, url: replaced }), { status: response.status, headers });
}

/** `target` with its `error` parameter set to `code`, when it names one of next-auth's generic codes; else null. */
function replaceErrorCode(target: string, code: string): string | null {
  let url: URL;
  try {
    url = new URL(target, "http://relative.invalid");
  } catch {
    return null;
  }
  if (!GENERIC_CODES.has(url.searchParams.get("error") ?? "")) return null;
  url.searchParams.set("error", code);
  return url.origin === "http://relative.invalid" ? `${url.pathname}${url.search}${url.hash}` : url.toString();
}
