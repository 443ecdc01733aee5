/** One structured JSON line per event on stderr; never request bodies or credentials. */
export function logError(message: string, error: unknown, fields: Record<string, unknown> = {}): void {
  const err = error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { value: String(error) };
  process.stderr.write(JSON.stringify({ level: "error", time: new Date().toISOString(), msg: message, ...fields, error: err }) + "\n");
}
