import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { api } from "../api";
import { endpoints } from "../endpoints";
import { endpointQueryKey, useEndpointMutation, useEndpointQuery } from "../query";

const { banks } = endpoints;

/** The banks the caller may see: all for admins, their own for others. */
export function useBanks() {
  return useEndpointQuery(banks.list, undefined);
}

export function useBank(bankId: string) {
  return useEndpointQuery(banks.get, { params: { bank_id: bankId } });
}

/** The templates applied to the bank, newest first. */
export function useBankHistory(bankId: string) {
  return useEndpointQuery(banks.history, { params: { bank_id: bankId } });
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
