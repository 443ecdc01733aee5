import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { z } from "zod";
import type { RolloutBankResult } from "@/lib/contracts/banks/schemas";
import type { MergeResolutionEntry } from "@/lib/contracts/templates/merge";
import { api } from "../api";
import { endpoints } from "../endpoints";
import { describeError } from "../problem";
import { endpointQueryKey, useEndpointMutation, useEndpointQuery } from "../query";

const { banks } = endpoints;

/** The banks the caller may see: all for admins, their own for others; with `template`, those last applied from it. */
export function useBanks(template?: string) {
  return useEndpointQuery(banks.list, template === undefined ? undefined : { query: { template } });
}

/** How one bank of a rollout ended: the API's result for it, or why it failed (its problem, or the request's failure). */
export interface BankRolloutOutcome {
  bankId: string;
  applied: boolean;
  result: z.output<typeof RolloutBankResult> | null;
  /** Why it failed, one sentence with its status; null when applied. */
  reason: string | null;
}

/** A rollout that keeps each bank's local edits (CONTRACT §21), with the resolutions of the conflicts it names. */
export interface RolloutMerge {
  resolutions?: MergeResolutionEntry[];
}

/**
 * A rollout from the console in steps: one POST /banks/rollout per step, naming that step's banks
 * (`bank_ids`), so a progress bar can say how far it is; `refresh` afterwards shows the banks as they
 * are. A step whose request fails fails each of its banks with that reason. With `merge`, each bank
 * keeps its own edits; its conflicts left unresolved are its problem (409 merge-conflict).
 */
export function useBankRollout() {
  const queryClient = useQueryClient();
  const rollout = useCallback(
    async (template: string, bankIds: string[], dryRun: boolean, merge?: RolloutMerge): Promise<BankRolloutOutcome[]> => {
      try {
        const resolutions = merge?.resolutions?.length ? { resolutions: merge.resolutions } : {};
        const answer = await api.call(banks.rollout, {
          query: { dry_run: dryRun ? "true" : "false" },
          body: { template, bank_ids: bankIds, ...(merge ? { merge: true, ...resolutions } : {}) },
        });
        const byBank = new Map(answer.results.map((result) => [result.bank_id, result]));
        return bankIds.map((bankId) => {
          const result = byBank.get(bankId);
          if (!result) return { bankId, applied: false, result: null, reason: "The server's answer did not mention this bank." };
          const { problem } = result;
          return {
            bankId,
            applied: result.applied,
            result,
            reason: problem ? `${problem.status} ${problem.title}: ${problem.detail}` : null,
          };
        });
      } catch (error) {
        const reason = describeError(error);
        return bankIds.map((bankId) => ({ bankId, applied: false, result: null, reason }));
      }
    },
    [],
  );
  const refresh = useCallback(
    () =>
      Promise.all(
        [banks.list, banks.get, banks.history].map((e) => queryClient.invalidateQueries({ queryKey: ["ext-svc", e.method, e.path] })),
      ),
    [queryClient],
  );
  return { rollout, refresh };
}

export function useBank(bankId: string) {
  return useEndpointQuery(banks.get, { params: { bank_id: bankId } });
}

/** The templates applied to the bank, newest first; with `enabled` false, not asked (yet). */
export function useBankHistory(bankId: string, { enabled = true } = {}) {
  return useEndpointQuery(banks.history, { params: { bank_id: bankId } }, { enabled });
}

/**
 * Fetches the bank as a template manifest when asked (a download, a save as template), not
 * with the page: a fresh copy each time, kept in the query cache like any answer.
 */
export function useFetchBankExport() {
  const queryClient = useQueryClient();
  return useCallback(
    (bankId: string) => {
      const input = { params: { bank_id: bankId } };
      return queryClient.fetchQuery({
        queryKey: endpointQueryKey(banks.export, input),
        queryFn: () => api.call(banks.export, input),
        staleTime: 0,
      });
    },
    [queryClient],
  );
}

/**
 * Reads a bank and its history afresh, as a save refused for a change made meanwhile needs them;
 * the cache takes them too, so the page shows the bank as it is now.
 */
export function useReadBankAgain() {
  const queryClient = useQueryClient();
  return useCallback(
    async (bankId: string) => {
      const input = { params: { bank_id: bankId } };
      const [bank, history] = await Promise.all([
        readBankAfresh(queryClient, bankId),
        queryClient.fetchQuery({
          queryKey: endpointQueryKey(banks.history, input),
          queryFn: () => api.call(banks.history, input),
          staleTime: 0,
        }),
      ]);
      return { bank, history };
    },
    [queryClient],
  );
}

/** A bank as it is now, not as cached; the cache takes the answer too. */
function readBankAfresh(queryClient: QueryClient, bankId: string) {
  const input = { params: { bank_id: bankId } };
  return queryClient.fetchQuery({ queryKey: endpointQueryKey(banks.get, input), queryFn: () => api.call(banks.get, input), staleTime: 0 });
}

/** Reads banks afresh when asked (a rollout preview asks which of them were edited here). */
export function useReadBank() {
  const queryClient = useQueryClient();
  return useCallback((bankId: string) => readBankAfresh(queryClient, bankId), [queryClient]);
}

/**
 * Creates a bank from a template or applies one to an existing bank; with
 * `query: {dry_run: "true"}` it only reports what it would do (nothing is refreshed then,
 * since nothing changed).
 */
export function useApplyTemplate() {
  return useEndpointMutation(banks.create, { invalidates: [banks.list, banks.get, banks.history] });
}

/**
 * Deletes a bank. Only the list is refreshed: the bank's own page is left (by the caller)
 * rather than asked again for a bank that is gone.
 */
export function useDeleteBank() {
  return useEndpointMutation(banks.remove, { invalidates: [banks.list] });
}

// Edits in place (CONTRACT §21): each answers the bank, so its page and history are asked again.
const editRefreshes = { invalidates: [banks.list, banks.get, banks.history] };

/** Renames a bank or changes its config (a field set to null: back to the server's default). */
export function usePatchBank() {
  return useEndpointMutation(banks.patch, editRefreshes);
}

/** Creates or replaces one mental model of a bank. */
export function usePutMentalModel() {
  return useEndpointMutation(banks.putMentalModel, editRefreshes);
}

export function useRemoveMentalModel() {
  return useEndpointMutation(banks.removeMentalModel, editRefreshes);
}

/** Creates or replaces one directive of a bank. */
export function usePutDirective() {
  return useEndpointMutation(banks.putDirective, editRefreshes);
}

export function useRemoveDirective() {
  return useEndpointMutation(banks.removeDirective, editRefreshes);
}

/**
 * Puts back the bank's content as it was right after an entry of its history (CONTRACT §21); with
 * `query: {dry_run: "true"}` it answers the changes that would make and writes nothing.
 */
export function useRestoreBank() {
  return useEndpointMutation(banks.restore, editRefreshes);
}
