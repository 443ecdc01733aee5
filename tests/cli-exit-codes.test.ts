import { describe, expect, it } from "vitest";
import { ExitCode, exitCodeFor, problemFromAnswer } from "@/cli/errors";
import { PROBLEM_STATUS, type ProblemType, problemTypeUri } from "@/lib/contracts/problem-types";

describe("the CLI's exit codes", () => {
  it("follow the API's problem type, as the server's DomainError names it", () => {
    for (const type of Object.keys(PROBLEM_STATUS) as ProblemType[]) {
      const status = PROBLEM_STATUS[type];
      const expected =
        type === "precondition-failed"
          ? ExitCode.changed
          : status === 401 || status === 403
            ? ExitCode.auth
            : status < 500
              ? ExitCode.refused
              : ExitCode.unreachable;
      // The type decides, whatever status came with it.
      expect(exitCodeFor({ type: problemTypeUri(type), status: 200 }), type).toBe(expected);
    }
    expect(exitCodeFor({ type: problemTypeUri("local-edits") })).toBe(ExitCode.refused);
    // Someone else changed it since it was read (CONTRACT §19): its own code, for scripts to read again.
    expect(exitCodeFor({ type: problemTypeUri("precondition-failed"), status: 412 })).toBe(6);
  });

  it("go by the status for an answer that is not the API's", () => {
    expect(exitCodeFor(problemFromAnswer(403, "<h1>Forbidden</h1>"))).toBe(ExitCode.auth);
    expect(exitCodeFor(problemFromAnswer(404, null))).toBe(ExitCode.refused);
    expect(exitCodeFor(problemFromAnswer(502, "Bad gateway"))).toBe(ExitCode.unreachable);
    expect(exitCodeFor({ type: "urn:bank-templates:problem:no-such-type", status: 400 })).toBe(ExitCode.refused);
    expect(exitCodeFor({ type: "urn:bank-templates:cli:unreachable" })).toBe(ExitCode.unreachable);
    // A proxy's JSON that says something else than the response did: the response's status counts.
    expect(exitCodeFor(problemFromAnswer(401, { status: "error" }), 401)).toBe(ExitCode.auth);
  });
});
