// Response headers of CONTRACT §11. No Node imports: proxy.ts uses this.

/** The Content-Security-Policy of console pages; scripts run only with this response's nonce. */
function contentSecurityPolicy(nonce: string, { development = false } = {}): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts our nonce'd scripts load (Next's chunks) may run, nothing else.
    // Development builds evaluate modules with eval for fast refresh.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    // Mantine and Swagger UI set style attributes; a style nonce would disable 'unsafe-inline'.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers of every HTML page of the console. */
export function pageSecurityHeaders(nonce: string, options: { https: boolean; development?: boolean }): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(nonce, options),
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    ...(options.https ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
