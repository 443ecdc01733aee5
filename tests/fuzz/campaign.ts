import fc from "fast-check";
import { contractViolations } from "./checks";
import { describeRequest, dispatch, type FuzzRequest, type FuzzResponse } from "./dispatch";
import { type Operation, requestArbitrary } from "./operations";
import type { SchemaContext } from "./schema-arbitraries";
import type { FuzzWorld } from "./seed-state";

export interface CampaignOptions {
  /** Requests in total, spread evenly over the operations. */
  totalRequests: number;
  seed: number;
  /** Only operations whose key contains this text. */
  only?: string;
  /** Called with every request and its answer (FUZZ_TRACE), for looking at what a run really does. */
  trace?: (request: FuzzRequest, status: number, detail: string) => void;
}

export interface Violation {
  request: FuzzRequest;
  status: number | null;
  problems: string[];
  /** The error the pipeline logged on stderr for this request (500s), with its stack. */
  loggedError?: string;
}

export interface CampaignResult {
  seed: number;
  requests: number;
  perOperation: Map<string, Map<number, number>>;
  statusHistogram: Map<number, number>;
  serverErrors: number;
  /** Responses >= 400 that are not well-formed problem+json. */
  nonProblemErrors: number;
  /** Requests whose path normalised to somewhere outside the API (no route file): not sent. */
  unrouted: number;
  /** Generated writes aimed at the callers themselves (they would end the run's credentials): not sent. */
  skippedProtected: number;
  violations: Violation[];
}

/** Catches the JSON error lines the pipeline writes to stderr, so a 500 comes with its stack. */
function captureErrorLog() {
  const lines: string[] = [];
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    if (text.includes('"level":"error"')) {
      lines.push(text.trim());
      return true;
    }
    return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  return {
    take: () => lines.splice(0).join("\n"),
    restore: () => {
      process.stderr.write = original;
    },
  };
}

function targetsProtected(request: FuzzRequest, world: FuzzWorld): boolean {
  if (request.method === "GET" || request.caller === "anonymous" || request.caller === "bad-credentials") return false;
  return (request.targets ?? []).some((value) => world.protectedIds.has(value));
}

/** The requests of a campaign: each operation's own stream, interleaved round-robin so state carries across operations. */
function generateRequests(ctx: SchemaContext, operations: Operation[], options: CampaignOptions): FuzzRequest[] {
  const chosen = operations.filter((op) => !options.only || op.key.includes(options.only));
  const perOperation = Math.max(1, Math.ceil(options.totalRequests / Math.max(1, chosen.length)));
  const streams = chosen.map((op, index) => fc.sample(requestArbitrary(ctx, op), { seed: options.seed + index, numRuns: perOperation }));
  const requests: FuzzRequest[] = [];
  for (let round = 0; round < perOperation && requests.length < options.totalRequests; round++) {
    for (const stream of streams) {
      if (requests.length >= options.totalRequests) break;
      requests.push(stream[round]!);
    }
  }
  return requests;
}

/** How often (in requests) deleted seed resources are re-created. */
const REPLENISH_EVERY = 250;

export async function runCampaign(
  world: FuzzWorld,
  ctx: SchemaContext,
  operations: Operation[],
  options: CampaignOptions,
): Promise<CampaignResult> {
  const byKey = new Map(operations.map((op) => [op.key, op]));
  const result: CampaignResult = {
    seed: options.seed,
    requests: 0,
    perOperation: new Map(),
    statusHistogram: new Map(),
    serverErrors: 0,
    nonProblemErrors: 0,
    unrouted: 0,
    skippedProtected: 0,
    violations: [],
  };
  // A few spare requests stand in for the ones not sent (skipped or unrouted), so exactly
  // totalRequests reach the API.
  const spare = Math.ceil(options.totalRequests / 20);
  const requests = generateRequests(ctx, operations, { ...options, totalRequests: options.totalRequests + spare });
  const log = captureErrorLog();
  try {
    for (const [index, request] of requests.entries()) {
      if (result.requests >= options.totalRequests) break;
      if (index > 0 && index % REPLENISH_EVERY === 0) await world.replenish();
      if (targetsProtected(request, world)) {
        result.skippedProtected++;
        continue;
      }
      log.take();
      let response: FuzzResponse | null;
      try {
        response = await dispatch(request, world.tokens);
      } catch (error) {
        // A handler that rejects instead of answering becomes the framework's own 500.
        result.requests++;
        result.serverErrors++;
        result.violations.push({
          request,
          status: null,
          problems: [`handler threw: ${(error as Error)?.stack ?? String(error)}`],
          loggedError: log.take() || undefined,
        });
        continue;
      }
      if (!response) {
        result.unrouted++;
        continue;
      }
      result.requests++;
      const statuses = result.perOperation.get(request.operation) ?? new Map<number, number>();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      result.perOperation.set(request.operation, statuses);
      result.statusHistogram.set(response.status, (result.statusHistogram.get(response.status) ?? 0) + 1);

      if (options.trace) {
        let detail = "";
        try {
          detail = response.status >= 400 ? JSON.parse(response.text).detail : "";
        } catch {
          detail = response.text.slice(0, 200);
        }
        options.trace(request, response.status, detail);
      }
      const problems = contractViolations(byKey.get(request.operation), response, request.path);
      if (response.status >= 500 && problems.some((p) => p.startsWith("answered"))) result.serverErrors++;
      if (response.status >= 400 && problems.some((p) => !p.startsWith("answered"))) result.nonProblemErrors++;
      if (problems.length) result.violations.push({ request, status: response.status, problems, loggedError: log.take() || undefined });
    }
  } finally {
    log.restore();
  }
  return result;
}

const firstLine = (text: string | undefined) => {
  if (!text) return "";
  try {
    const entry = JSON.parse(text.split("\n")[0]!) as { error?: { message?: string } };
    return entry.error?.message?.split("\n")[0] ?? "";
  } catch {
    return text.split("\n")[0]!;
  }
};

/** Violations grouped by operation, problem and logged error, each with its shortest request. */
export function groupViolations(violations: Violation[]): { count: number; example: Violation }[] {
  const groups = new Map<string, { count: number; example: Violation }>();
  for (const violation of violations) {
    const key = [
      violation.request.operation,
      violation.status,
      violation.problems.map((p) => p.split("\n")[0]).join("; "),
      firstLine(violation.loggedError),
    ].join(" | ");
    const group = groups.get(key);
    const size = (v: Violation) => describeRequest(v.request).length;
    if (!group) groups.set(key, { count: 1, example: violation });
    else {
      group.count++;
      if (size(violation) < size(group.example)) group.example = violation;
    }
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

const histogram = (counts: Map<number, number>) =>
  [...counts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}×${count}`)
    .join(" ");

/** The human summary: requests per operation, status histogram, 5xx and non-problem counts, and each distinct violation. */
export function formatSummary(result: CampaignResult, options: { maxViolationGroups?: number } = {}): string {
  const lines: string[] = [];
  lines.push(
    `fuzz seed ${result.seed}: ${result.requests} requests sent (${result.unrouted} normalised outside the API, ${result.skippedProtected} writes at the callers themselves skipped)`,
  );
  lines.push("");
  lines.push("requests per operation (status×count):");
  const width = Math.max(...[...result.perOperation.keys()].map((k) => k.length), 10);
  for (const [operation, statuses] of [...result.perOperation.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    lines.push(`  ${operation.padEnd(width)} ${String(total).padStart(5)}  ${histogram(statuses)}`);
  }
  lines.push("");
  lines.push(`status histogram: ${histogram(result.statusHistogram)}`);
  lines.push(`5xx answers (must be 0): ${result.serverErrors}`);
  lines.push(`errors that are not problem+json (must be 0): ${result.nonProblemErrors}`);
  lines.push(`contract violations: ${result.violations.length}`);
  const groups = groupViolations(result.violations);
  for (const { count, example } of groups.slice(0, options.maxViolationGroups ?? 25)) {
    lines.push("");
    lines.push(`× ${count}: ${example.request.operation} → ${example.status ?? "threw"}: ${example.problems.join("; ").slice(0, 600)}`);
    lines.push(describeRequest(example.request).replace(/^/gm, "    "));
    if (example.loggedError) lines.push(`    logged: ${example.loggedError.slice(0, 3000)}`);
  }
  if (groups.length > (options.maxViolationGroups ?? 25))
    lines.push(`… and ${groups.length - (options.maxViolationGroups ?? 25)} more kinds`);
  return lines.join("\n");
}
