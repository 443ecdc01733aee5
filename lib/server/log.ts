// drizzle puts bound parameters in its error messages; they may hold user data, so logs drop them.
const withoutParams = (text: string | undefined) => text?.replace(/\nparams: [^\n]*/g, "\nparams: [redacted]");

/** The messages of the errors this one wraps (the driver's own words are usually the useful part). */
function causes(error: Error): string[] {
  const out: string[] = [];
  for (let e = error.cause, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) out.push(withoutParams(e.message)!);
  return out;
}

/** One structured JSON line per event on stderr; never request bodies, parameters or credentials. */
export function logError(message: string, error: unknown, fields: Record<string, unknown> = {}): void {
  const err =
    error instanceof Error
      ? { name: error.name, message: withoutParams(error.message), causes: causes(error), stack: withoutParams(error.stack) }
      : { value: String(error) };
  process.stderr.write(JSON.stringify({ level: "error", time: new Date().toISOString(), msg: message, ...fields, error: err }) + "\n");
}
