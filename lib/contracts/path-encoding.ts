// No imports: proxy.ts uses this too.

/** True when every %XX escape of a URL path decodes (to valid UTF-8). */
export function hasValidPathEncoding(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}
