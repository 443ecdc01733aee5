import "server-only";
import pino from "pino";
import { causeChain } from "@/lib/errors/cause-chain";
import { logLevelFrom } from "./config";

// drizzle puts bound parameters in its error messages; they may hold user data, so logs drop them.
const withoutParams = (text: string | undefined) => text?.replace(/\nparams: [^\n]*/g, "\nparams: [redacted]");

/** The messages of the errors this one wraps (the driver's own words are usually the useful part). */
function causes(error: Error): string[] {
  return causeChain(error.cause, 4)
    .filter((e): e is Error => e instanceof Error)
    .map((e) => withoutParams(e.message)!);
}

// Nothing logs a credential on purpose; should a field of one of these names slip into a log
// call anyway (top level or one object down), its value is replaced.
const CREDENTIAL_KEYS = ["authorization", "cookie", "token", "password", "secret", "api_key", "apiKey", "authToken"];

// Under vitest the suite stays quiet but for warnings and errors (tests assert on those);
// LOG_LEVEL, when set, wins everywhere.
const level = process.env.LOG_LEVEL || !process.env.VITEST ? logLevelFrom(process.env) : "warn";

/**
 * The process's one logger: one JSON object per line on stderr, `level` as its name and `time`
 * in ISO 8601. Writes go through process.stderr.write looked up at each call, so whoever
 * replaces that (a test capturing lines) sees every line.
 */
export const logger = pino(
  {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: CREDENTIAL_KEYS.flatMap((key) => [key, `*.${key}`]), censor: "[redacted]" },
  },
  { write: (line: string) => process.stderr.write(line) },
);

/** One error line; never request bodies, parameters or credentials. */
export function logError(message: string, error: unknown, fields: Record<string, unknown> = {}): void {
  const err =
    error instanceof Error
      ? { name: error.name, message: withoutParams(error.message), causes: causes(error), stack: withoutParams(error.stack) }
      : { value: String(error) };
  logger.error({ ...fields, error: err }, message);
}

/** The route label of requests no route file names (their raw paths would be unbounded labels). */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * The one line each API request logs, written when its answer is known. `route` is the
 * endpoint's path template, never the raw path; the line holds no body, query string, header
 * or token.
 */
export function logRequest(line: {
  requestId: string;
  method: string;
  route: string;
  status: number;
  started: number;
  principal?: { id: string; type: string };
}): number {
  const seconds = (performance.now() - line.started) / 1000;
  logger.info(
    {
      request_id: line.requestId,
      method: line.method,
      route: line.route,
      status: line.status,
      duration_ms: Math.round(seconds * 10_000) / 10,
      ...(line.principal ? { principal_id: line.principal.id, principal_type: line.principal.type } : {}),
    },
    "request",
  );
  return seconds;
}
