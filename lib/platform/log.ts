import "server-only";
import pino from "pino";
import { causeChain } from "@/lib/shared/cause-chain";
import { logLevelFrom } from "./config";

// ---- Bounded lines --------------------------------------------------------------------------

/** The longest line the logger writes, newline included: log pipelines cut or drop longer ones. */
const MAX_LINE_BYTES = 16 * 1024;
/** Where shortening strings starts, and where it gives up on the fields and keeps only the message. */
const FIRST_STRING_CHARS = 4096;
const LAST_STRING_CHARS = 64;
/** Items a list keeps once its line is too long; deeper than this, values become a marker. */
const LIST_ITEMS_KEPT = 20;
const DEPTH_KEPT = 8;

/** `text` cut to `keep` characters (never between a surrogate pair) with a marker saying how much went. */
function shorten(text: string, keep: number): string {
  if (text.length <= keep) return text;
  const end = /[\uD800-\uDBFF]/.test(text[keep - 1]!) ? keep - 1 : keep;
  return `${text.slice(0, end)}…[${text.length - end} more characters]`;
}

function shortenStrings(value: unknown, keep: number, depth = 0): unknown {
  if (typeof value === "string") return shorten(value, keep);
  if (value === null || typeof value !== "object") return value;
  if (depth >= DEPTH_KEPT) return "[nested too deep for the log]";
  if (Array.isArray(value)) {
    const kept = value.slice(0, LIST_ITEMS_KEPT).map((item) => shortenStrings(item, keep, depth + 1));
    return value.length > LIST_ITEMS_KEPT ? [...kept, `[${value.length - LIST_ITEMS_KEPT} more items]`] : kept;
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shortenStrings(item, keep, depth + 1)]));
}

const byteLength = (line: string) => (line.length * 3 <= MAX_LINE_BYTES ? line.length : Buffer.byteLength(line));

/**
 * A line of pino's within MAX_LINE_BYTES. Longer ones are rewritten with their strings shortened,
 * 4,096 characters each and half that until the line fits, and lists cut to their first items;
 * a line that still does not fit (thousands of fields) keeps its level, time and message and says
 * how long it was. Done where lines are written, so every caller is covered.
 */
function boundedLine(line: string): string {
  if (byteLength(line) <= MAX_LINE_BYTES) return line;
  const cut = `${Buffer.byteLength(line)} bytes`;
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    // Not pino's JSON after all (it always is): its start and length.
    return `${JSON.stringify({ msg: shorten(line, FIRST_STRING_CHARS), log_line_cut: cut })}\n`;
  }
  for (let keep = FIRST_STRING_CHARS; keep >= LAST_STRING_CHARS; keep = Math.floor(keep / 2)) {
    const shortened = `${JSON.stringify(shortenStrings(record, keep))}\n`;
    if (Buffer.byteLength(shortened) <= MAX_LINE_BYTES) return shortened;
  }
  const { level, time, msg } = record;
  const message = typeof msg === "string" ? shorten(msg, FIRST_STRING_CHARS) : undefined;
  return `${JSON.stringify({ level, time, msg: message, log_line_cut: cut })}\n`;
}

// ---- Errors ---------------------------------------------------------------------------------

/** How much of a failed statement's SQL an error line keeps: enough to tell which statement it was. */
const STATEMENT_CHARS_KEPT = 500;

// drizzle puts a failed statement's SQL and bound parameters in its error message (and so in the
// stack). The parameters may hold user data, so logs drop them; the SQL of a large insert can run
// to megabytes, so logs keep its start.
const withoutParams = (text: string | undefined) => text?.replace(/\nparams: [^\n]*/g, "\nparams: [redacted]");

/** The error's message and stack with a failed statement's SQL shortened and its parameters dropped. */
function failedStatementText(error: Error): { message: string; stack: string | undefined } {
  const { query } = error as Error & { query?: unknown };
  // A replacer function, so `$` in the SQL ($1, $2…) is never read as a replacement pattern.
  const shortened = (text: string) =>
    typeof query === "string" && query.length > STATEMENT_CHARS_KEPT
      ? text.replace(query, () => shorten(query, STATEMENT_CHARS_KEPT))
      : text;
  return { message: withoutParams(shortened(error.message))!, stack: withoutParams(error.stack && shortened(error.stack)) };
}

/** The messages of the errors this one wraps (the driver's own words are usually the useful part). */
function causes(error: Error): string[] {
  return causeChain(error.cause, 4)
    .filter((e): e is Error => e instanceof Error)
    .map((e) => failedStatementText(e).message);
}

// Nothing logs a credential on purpose; should a field of one of these names slip into a log
// call anyway (top level or one object down), its value is replaced.
const CREDENTIAL_KEYS = ["authorization", "cookie", "token", "password", "secret", "api_key", "apiKey", "authToken"];

// Under vitest the suite stays quiet but for warnings and errors (tests assert on those);
// LOG_LEVEL, when set, wins everywhere.
const level = process.env.LOG_LEVEL || !process.env.VITEST ? logLevelFrom(process.env) : "warn";

/**
 * The process's one logger: one JSON object per line on stderr, `level` as its name and `time`
 * in ISO 8601, no line over 16 KB (boundedLine). Writes go through process.stderr.write looked
 * up at each call, so whoever replaces that (a test capturing lines) sees every line.
 */
export const logger = pino(
  {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: CREDENTIAL_KEYS.flatMap((key) => [key, `*.${key}`]), censor: "[redacted]" },
  },
  { write: (line: string) => process.stderr.write(boundedLine(line)) },
);

/** One error line; never request bodies, parameters or credentials. */
export function logError(message: string, error: unknown, fields: Record<string, unknown> = {}): void {
  const err =
    error instanceof Error ? { name: error.name, ...failedStatementText(error), causes: causes(error) } : { value: String(error) };
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
  actor?: { id: string; type: string };
}): number {
  const seconds = (performance.now() - line.started) / 1000;
  logger.info(
    {
      request_id: line.requestId,
      method: line.method,
      route: line.route,
      status: line.status,
      duration_ms: Math.round(seconds * 10_000) / 10,
      ...(line.actor ? { principal_id: line.actor.id, principal_type: line.actor.type } : {}),
    },
    "request",
  );
  return seconds;
}
