// What the CLI writes. stdout carries the result (with --json exactly one JSON document);
// stderr carries progress and errors, so a script can pipe stdout and still see what happened.
import cliProgress from "cli-progress";
import type { ProblemReport } from "./errors";

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLines(...lines: string[]): void {
  for (const line of lines) process.stdout.write(`${line}\n`);
}

export function warn(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Columns padded to their widest cell; `empty` is printed instead of a table without rows. */
export function printTable(headers: string[], rows: (string | number | null | undefined)[][], empty: string): void {
  if (rows.length === 0) {
    printLines(empty);
    return;
  }
  const cells = [headers, ...rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? "-" : String(cell))))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)));
  for (const row of cells)
    printLines(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    );
}

/** `409 Conflict`: the status and title, those the problem has. */
export const problemStatus = (problem: ProblemReport): string =>
  [problem.status, problem.title].filter((part) => part !== undefined && part !== "").join(" ");

/** `409 Conflict: <detail>`: the status and title when the problem has them, then its sentence. */
export function problemHeadline(problem: ProblemReport): string {
  const head = problemStatus(problem);
  const detail = problem.detail ?? "";
  return head && detail ? `${head}: ${detail}` : head || detail || "failed";
}

/** The problem, readably, on stderr: headline, each field error, the request id for support. */
export function printProblem(problem: ProblemReport, subject?: string): void {
  warn(`error: ${subject ? `${subject}: ` : ""}${problemHeadline(problem)}`);
  for (const error of problem.errors ?? []) warn(`  at ${error.path || "(body)"}: ${error.message}`);
  if (problem.request_id) warn(`  request id: ${problem.request_id}`);
}

/** JSON text of a value, for before/after values in human output. */
export const formatValue = (value: unknown): string => (value === undefined ? "-" : JSON.stringify(value));

interface Progress {
  /** One item is done; `message` says how it ended (`installed foo`). */
  done(message: string): void;
  stop(): void;
}

/**
 * A bar on a terminal; elsewhere (logs, CI, tests) one plain line per item, `[3/20] installed foo`,
 * because a bar's carriage returns make an unreadable log.
 */
export function startProgress(total: number, label: string): Progress {
  let count = 0;
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { stream: process.stderr, format: `${label} [{bar}] {value}/{total} {item}`, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { item: "" });
    return {
      done: (message) => bar.increment({ item: message }),
      stop: () => bar.stop(),
    };
  }
  return {
    done: (message) => warn(`[${++count}/${total}] ${message}`),
    stop: () => {},
  };
}
