import { endpoints } from "../endpoints";
import { useEndpointMutation, useEndpointQuery } from "../query";

const { banks } = endpoints;

/** The banks the caller may see: all for admins, their own for others. */
export function useBanks() {
  return useEndpointQuery(banks.list, undefined);
}

export function useBank(bankId: string) {
  return useEndpointQuery(banks.get, { params: { bank_id: bankId } });
}

/**
 * Creates a bank from a template or applies one to an existing bank; with
 * `query: {dry_run: "true"}` it only reports what it would do (nothing is refreshed then,
 * since nothing changed).
 */
export function useApplyTemplate() {
  return useEndpointMutation(banks.create, { invalidates: [banks.list, banks.get] });
}

/**
 * Deletes a bank. Only the list is refreshed: the bank's own page is left (by the caller)
 * rather than asked again for a bank that is gone.
 */
export function useDeleteBank() {
  return useEndpointMutation(banks.remove, { invalidates: [banks.list] });
}
