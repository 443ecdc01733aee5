// The CLI's connection to the API: the typed client of client/, and one place that turns every
// answer into data or a CliFailure with the right exit code.

import { causeChain } from "@/lib/shared/cause-chain";
import { type BankTemplatesClient, createBankTemplatesClient } from "../client";
import type { Connection } from "./config";
import { CliFailure, cliProblem, ExitCode, exitCodeFor, type ProblemReport, problemFromAnswer } from "./errors";

/** A server that accepted the connection but never answers must not hang a script forever. */
const REQUEST_TIMEOUT_MS = 60_000;

/** What every call of the typed client resolves to (openapi-fetch's `{ data, error, response }`, the ETag, a 304). */
type Answer<T> = { data?: T; error?: unknown; response: Response; etag?: string; notModified?: boolean };

/** A read's data and the version it shows, or (to `ifNoneMatch`) word that the version held is still current. */
export type Versioned<T> = { notModified: false; data: T; etag: string | undefined } | { notModified: true; etag: string | undefined };

/** What a conditional write changes, in words: `the policy of bank support:eu`. */
export interface Precondition {
  what: string;
  /** How to read it again, for the message: `bank-templates policy get support:eu`. */
  readAgain: string;
}

export class Api {
  readonly client: BankTemplatesClient;

  constructor(readonly connection: Connection) {
    this.client = createBankTemplatesClient({
      baseUrl: connection.url,
      apiKey: connection.apiKey,
      fetch: (request) => fetch(request, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    });
  }

  /**
   * The answer's data, or a CliFailure: the API's problem (exit 1, 3 or 4 by its type), or the
   * network's failure (exit 3). Messages name the server, never the key.
   */
  async call<T>(pending: Promise<Answer<T>>, precondition?: Precondition): Promise<T> {
    const answer = await this.versioned(pending, precondition);
    return (answer.notModified ? undefined : answer.data) as T;
  }

  /**
   * As `call`, with the answer's ETag, and a 304 (to `ifNoneMatch`) as `notModified`. A write
   * refused because `what` changed since it was read (412) fails with exit 6, saying so.
   */
  async versioned<T>(pending: Promise<Answer<T>>, precondition?: Precondition): Promise<Versioned<T>> {
    let answer: Answer<T>;
    try {
      answer = await pending;
    } catch (error) {
      throw this.unreachable(error);
    }
    if (answer.notModified) return { notModified: true, etag: answer.etag };
    if (!answer.response.ok) {
      const problem = problemFromAnswer(answer.response.status, answer.error);
      const code = exitCodeFor(problem, answer.response.status);
      if (code === ExitCode.changed && precondition) throw changedSinceRead(problem, precondition, answer.etag);
      throw new CliFailure(problem, code);
    }
    return { notModified: false, data: answer.data as T, etag: answer.etag };
  }

  private unreachable(error: unknown): CliFailure {
    const url = this.connection.url;
    if (error instanceof SyntaxError) {
      // A 2xx whose body is not JSON: a web page, not this API, answers at that address.
      return new CliFailure(
        cliProblem("not-the-api", "Not the API", `${url} answered with something that is not the API's JSON`),
        ExitCode.unreachable,
      );
    }
    if (error instanceof DOMException && error.name === "TimeoutError") {
      return new CliFailure(
        cliProblem("timeout", "Server timed out", `${url} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`),
        ExitCode.unreachable,
      );
    }
    return new CliFailure(
      cliProblem("unreachable", "Server unreachable", `Cannot reach ${url}: ${describeNetworkError(error)}`),
      ExitCode.unreachable,
    );
  }
}

/** The API's 412, told as what happened: someone else changed it since it was read, and nothing was written. */
function changedSinceRead(problem: ProblemReport, { what, readAgain }: Precondition, current: string | undefined): CliFailure {
  const detail = `${what} changed since it was read (someone else changed it meanwhile): nothing was written. Read it again (${readAgain}) and redo your change, or add --force to overwrite theirs.`;
  return new CliFailure({ ...problem, detail, current_etag: current ?? null }, ExitCode.changed);
}

/** fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, a TLS error) is in its cause. */
function describeNetworkError(error: unknown): string {
  const reason = causeChain(error).findLast((e) => e instanceof Error) ?? error;
  if (reason instanceof Error) {
    const code = (reason as NodeJS.ErrnoException).code;
    return code && !reason.message.includes(code) ? `${code} ${reason.message}` : reason.message;
  }
  return String(reason);
}
