/** Where the console goes after sign-in when nothing else was asked for. */
const DEFAULT_AFTER_SIGN_IN = "/sources";

/**
 * A callbackUrl we may navigate to: a path on this site only (`/x`, not `//host` or
 * `/\host`, which browsers read as other hosts), never back to the sign-in page.
 */
export function safeCallbackUrl(value: string | string[] | undefined | null): string {
  const url = Array.isArray(value) ? value[0] : value;
  if (!url?.startsWith("/") || url.startsWith("//") || url.startsWith("/\\")) return DEFAULT_AFTER_SIGN_IN;
  if (url === "/signin" || url.startsWith("/signin?") || url.startsWith("/api/auth")) return DEFAULT_AFTER_SIGN_IN;
  return url;
}
