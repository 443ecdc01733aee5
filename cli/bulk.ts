// Commands over many templates (install several, update --all): a few requests at a time, one
// progress step per item, and one result per item whatever happened to the others.
import { mapWithConcurrency } from "../lib/shared/concurrency";
import { CliFailure, ExitCode, exitCodeFor, type ProblemReport } from "./errors";
import { printJson, printLines, printProblem, problemStatus, startProgress } from "./output";

interface ItemResult<T> {
  id: string;
  /** How the item ended: `installed`, `skipped`, `updated`, `unchanged` or `failed`. */
  outcome: string;
  /** The API's answer for the item; null when it failed or was skipped. */
  result: T | null;
  /** Why it failed; null otherwise. */
  problem: ProblemReport | null;
}

interface ItemDone<T> {
  outcome: string;
  result: T | null;
  /** The progress line's text, `installed foo as bar`. */
  message: string;
}

interface BulkOptions {
  /** Shown before the bar on a terminal. */
  label: string;
  concurrency: number;
}

/** Runs `work` for every id, `concurrency` at a time; results come back in the order of `ids`. */
export async function runBulk<T>(
  ids: string[],
  options: BulkOptions,
  work: (id: string) => Promise<ItemDone<T>>,
): Promise<ItemResult<T>[]> {
  const progress = startProgress(ids.length, options.label);
  try {
    return await mapWithConcurrency(
      ids,
      options.concurrency,
      async (id): Promise<ItemResult<T>> => {
        try {
          const done = await work(id);
          progress.done(done.message);
          return { id, outcome: done.outcome, result: done.result, problem: null };
        } catch (error) {
          // Only the API's or the network's refusal of this item; a bug in the CLI stops the run.
          if (!(error instanceof CliFailure)) throw error;
          progress.done(`failed ${id} (${problemStatus(error.problem)})`);
          return { id, outcome: "failed", result: null, problem: error.problem };
        }
      },
      { stopOnError: true },
    );
  } finally {
    progress.stop();
  }
}

/**
 * 0 when every item went well; 5 when some failed and others did not; when all failed, the code
 * a single failure of the first would have (1, 3 or 4), so a one-item run exits like any command.
 */
export function bulkExitCode(results: { problem: ProblemReport | null }[]): ExitCode {
  const failures = results.filter((item) => item.problem);
  if (failures.length === 0) return ExitCode.ok;
  if (failures.length < results.length) return ExitCode.partial;
  return exitCodeFor(failures[0]!.problem!);
}

/** Every failure in full on stderr, then on stdout the results as JSON with --json, else a count per outcome. */
export function reportBulk(results: ItemResult<unknown>[], json: boolean): ExitCode {
  if (json) printJson(results);
  for (const item of results) if (item.problem) printProblem(item.problem, item.id);
  if (!json) {
    const counts = new Map<string, number>();
    for (const item of results) counts.set(item.outcome, (counts.get(item.outcome) ?? 0) + 1);
    printLines([...counts].map(([outcome, count]) => `${outcome} ${count}`).join(", ") || "nothing to do");
  }
  return bulkExitCode(results);
}
