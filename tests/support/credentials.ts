// What must never appear in a log line: shared by the unit tests' log scan (log-scan.ts) and the
// browser tests' scan of their server's log (e2e/support/server-log.ts).

// An API key (lib/services/identity/api-keys.ts), an Authorization value that escaped redaction, a
// session token cookie.
const CREDENTIAL_SHAPES = [/hbk_[A-Za-z0-9_-]{16,}/, /Bearer (?!\[redacted\])\S{8,}/i, /session-token=[^;"\s]{8,}/];

/** The lines holding a credential: one of the shapes above, or one of the run's own `secrets` (tokens, passwords). */
export function linesWithCredentials(lines: readonly string[], secrets: readonly string[]): string[] {
  return lines.filter((line) => CREDENTIAL_SHAPES.some((shape) => shape.test(line)) || secrets.some((secret) => line.includes(secret)));
}
