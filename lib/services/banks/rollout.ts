import "server-only";
import type { z } from "zod";
import { type RolloutBankResult, type RolloutRequest, rolloutBankId } from "@/lib/contracts/banks/schemas";
import { DomainError, internalError, nestedProblem } from "@/lib/contracts/errors";
import { logError } from "@/lib/platform/log";
import type { ServiceContext } from "@/lib/services/context";
import { recordEvent } from "@/lib/services/outbox/outbox";
import { conditionalWrite } from "@/lib/services/preconditions";
import { mapWithConcurrency } from "@/lib/shared/concurrency";
import { appliedTemplate, bankStore, mergeRequest } from "./banks";

/** Banks applied at once: each import is a transaction (or a few Hindsight calls) of its own. */
const ROLLOUT_CONCURRENCY = 4;

/** A failure as the bank's POST /banks would have answered it; anything but a DomainError is a 500 that says nothing more. */
function asProblem(ctx: ServiceContext, bankId: string, error: unknown) {
  if (error instanceof DomainError) return nestedProblem(error);
  logError("rollout to one bank failed", error, { requestId: ctx.requestId, bankId });
  return nestedProblem(internalError());
}

/** The context of one bank named with its ETag: the apply checks it as POST /banks does an If-Match. */
function conditionalOn(ctx: ServiceContext, ifMatch: string): ServiceContext {
  const { precondition, audit } = conditionalWrite(ctx.audit, { ifMatch, ifNoneMatch: null });
  return { ...ctx, precondition, audit };
}

/**
 * POST /banks/rollout (CONTRACT §16): the template resolved once (its current content and version),
 * applied to each bank through the store's import as POST /banks applies it (with `merge`, keeping each
 * bank's local edits: a bank's conflicts are its own problem, CONTRACT §21), so permissions,
 * `changes`, history and the audit entry are each bank's own. Without bank_ids, the banks the caller
 * may write whose last applied template is this one and which are behind, by id. One bank's failure
 * is its `problem`; the others go on. When the caller goes away no further bank is started. A real
 * rollout that finished is the event `rollout.completed`.
 */
export async function rolloutTemplate(
  ctx: ServiceContext,
  { body, dryRun }: { body: z.output<typeof RolloutRequest>; dryRun: boolean },
): Promise<{ results: z.input<typeof RolloutBankResult>[] }> {
  const merge = mergeRequest(body.merge ?? false, body.resolutions);
  const template = await appliedTemplate(ctx, body.template);
  const store = bankStore(ctx);
  const entries =
    body.bank_ids ?? (await store.list(ctx, { templateRow: template.rowId })).filter((bank) => bank.behind).map((bank) => bank.bank_id);
  const results = await mapWithConcurrency(
    entries,
    ROLLOUT_CONCURRENCY,
    async (entry) => {
      const bankId = rolloutBankId(entry);
      try {
        const bankCtx = typeof entry === "string" ? ctx : conditionalOn(ctx, entry.if_match);
        const { result, changes } = await store.importTemplate(bankCtx, { bankId, template, dryRun, merge });
        return { bank_id: bankId, applied: true, import_result: result, changes, problem: null };
      } catch (error) {
        return { bank_id: bankId, applied: false, import_result: null, changes: null, problem: asProblem(ctx, bankId, error) };
      }
    },
    { signal: ctx.signal },
  );
  // A real rollout that ran to its end tells its caller's webhooks (CONTRACT §20); each bank's own
  // import recorded its bank event already, in that bank's transaction.
  if (!dryRun && !ctx.signal.aborted) {
    await recordEvent(ctx.db, {
      type: "rollout.completed",
      data: { template: template.ref, results },
      audience: { kind: "owner", userId: ctx.actor.userId },
    });
  }
  return { results };
}
