// What the CLI reads: JSON files (`-f file`, `-` for stdin) and, for login, prompts.
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";
import { usageError } from "./errors";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The JSON in `file` (`-`: stdin). An unreadable file or invalid JSON is a usage error (exit 2). */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = file === "-" ? await readStdin() : await readFile(file, "utf8");
  } catch (error) {
    throw usageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw usageError(`${file} is not JSON: ${(error as Error).message}`);
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The first line of stdin, for a secret piped in (`echo "$KEY" | bank-templates login`). */
export async function readStdinLine(): Promise<string> {
  return (await readStdin()).split(/\r?\n/, 1)[0]!.trim();
}

/** Asks on stderr, so that stdout keeps only the command's result. */
export async function prompt(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

/** Asks without echoing what is typed: readline writes the typed characters to a stream that drops them. */
export async function promptSecret(question: string): Promise<string> {
  process.stderr.write(question);
  const silent = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const rl = createInterface({ input: process.stdin, output: silent, terminal: true });
  try {
    return (await rl.question("")).trim();
  } finally {
    rl.close();
    process.stderr.write("\n");
  }
}
