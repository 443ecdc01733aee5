import { DomainError, nestedProblem } from "@/lib/contracts/errors";
import type { NestedProblem } from "@/lib/contracts/problem-schema";

/**
 * The problem a promise fails with (a DomainError, as the API would answer it: status, type,
 * detail, errors); fails the test when it resolves or throws anything else.
 */
export async function failure(promise: Promise<unknown>): Promise<NestedProblem & { code: DomainError["code"] }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return { ...nestedProblem(error), code: error.code };
    throw error;
  }
  throw new Error("expected the call to fail");
}
