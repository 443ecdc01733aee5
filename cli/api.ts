// The CLI's connection to the API: the typed client of client/, and one place that turns every
// answer into data or a CliFailure with the right exit code.

import { causeChain } from "@/lib/shared/cause-chain";
import { type BankTemplatesClient, createBankTemplatesClient } from "../client";
import type { Connection } from "./config";
import { CliFailure, cliProblem, ExitCode, exitCodeFor, problemFromAnswer } from "./errors";

/** A server that accepted the connection but never answers must not hang a script forever. */
const REQUEST_TIMEOUT_MS = 60_000;

/** What every call of the typed client resolves to (openapi-fetch's `{ data, error, response }`). */
type Answer<T> = { data?: T; error?: unknown; response: Response };

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
  async call<T>(pending: Promise<Answer<T>>): Promise<T> {
    let answer: Answer<T>;
    try {
      answer = await pending;
    } catch (error) {
      throw this.unreachable(error);
    }
    if (!answer.response.ok) {
      const problem = problemFromAnswer(answer.response.status, answer.error);
      throw new CliFailure(problem, exitCodeFor(problem, answer.response.status));
    }
    return answer.data as T;
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

/** fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, a TLS error) is in its cause. */
function describeNetworkError(error: unknown): string {
  const reason = causeChain(error).findLast((e) => e instanceof Error) ?? error;
  if (reason instanceof Error) {
    const code = (reason as NodeJS.ErrnoException).code;
    return code && !reason.message.includes(code) ? `${code} ${reason.message}` : reason.message;
  }
  return String(reason);
}
