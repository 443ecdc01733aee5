/** Source names, derived or given as alias (CONTRACT §5). */
export const SOURCE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const SOURCE_NAME_RULE = "must be 1-64 characters of A-Z, a-z, 0-9, '.', '_' or '-', starting with a letter or digit";

/** Absolute http(s) URL, or null. */
export function parseHttpUrl(text: string): URL | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : null;
}

/**
 * Where a source's token may be sent (CONTRACT §19): the scheme, host and port of the URL it was
 * given with (its origin, `https://github.com`); null for a text that is no http(s) URL.
 */
export const tokenHostOf = (text: string): string | null => parseHttpUrl(text)?.origin ?? null;

/**
 * The first non-empty path segment, after dropping a trailing `/` and `.git`:
 * `https://github.com/acme/bank-templates.git` → `acme`. Null when there is none.
 */
export function deriveSourceName(url: URL): string | null {
  const path = url.pathname.replace(/\/+$/, "").replace(/\.git$/, "");
  return path.split("/").find((segment) => segment.length > 0) ?? null;
}
