import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PolicyContext } from "@/lib/contracts/policy/schemas";
import { api, type CallResult } from "../api";
import { endpoints } from "../endpoints";
import { ApiProblem } from "../problem";
import { endpointQueryKey, useEndpointQuery } from "../query";

const { policy, banks } = endpoints;

type Policy = CallResult<typeof policy.get>;

const policyKey = (bankId: string) => endpointQueryKey(policy.get, { params: { bank_id: bankId } });
const bankKey = (bankId: string) => endpointQueryKey(banks.get, { params: { bank_id: bankId } });
const resolveKeyPrefix = (bankId: string) => ["ext-svc", policy.resolve.method, policy.resolve.path, { bank_id: bankId }] as const;

/**
 * A bank's policy document, or null when the bank has none. Only asked for when the bank's
 * detail says `has_policy` (pass `enabled: false` otherwise), so a bank without a policy
 * costs no 404; should the policy vanish in between, a 404 still reads as "none".
 */
export function useBankPolicy(bankId: string, enabled: boolean) {
  return useQuery<Policy | null, ApiProblem>({
    queryKey: policyKey(bankId),
    enabled,
    queryFn: async () => {
      try {
        return await api.call(policy.get, { params: { bank_id: bankId } });
      } catch (error) {
        if (error instanceof ApiProblem && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** Sets `has_policy` in the cached bank detail at once, then asks the API again. */
async function refreshHasPolicy(queryClient: ReturnType<typeof useQueryClient>, bankId: string, hasPolicy: boolean) {
  queryClient.setQueryData<Record<string, unknown>>(bankKey(bankId), (bank) => (bank ? { ...bank, has_policy: hasPolicy } : bank));
  await queryClient.invalidateQueries({ queryKey: bankKey(bankId) });
}

/**
 * Saves (PUT) or deletes a bank's policy. The cache is set from the answer instead of asking
 * again, and resolve previews are refreshed.
 */
export function useSavePolicy(bankId: string) {
  const queryClient = useQueryClient();
  return useMutation<Policy, ApiProblem, unknown>({
    mutationFn: (document) => api.call(policy.put, { params: { bank_id: bankId }, body: { document: document as never } }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(policyKey(bankId), saved);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: resolveKeyPrefix(bankId) }),
        refreshHasPolicy(queryClient, bankId, true),
      ]);
    },
  });
}

export function useDeletePolicy(bankId: string) {
  const queryClient = useQueryClient();
  return useMutation<void, ApiProblem, void>({
    mutationFn: () => api.call(policy.remove, { params: { bank_id: bankId } }),
    onSuccess: async () => {
      // Without a policy there is nothing to resolve (the API would answer 404).
      queryClient.removeQueries({ queryKey: resolveKeyPrefix(bankId) });
      queryClient.setQueryData(policyKey(bankId), null);
      await refreshHasPolicy(queryClient, bankId, false);
    },
  });
}

/** What the saved policy grants in one context; off while `enabled` is false (no policy saved). */
export function useResolvedPolicy(bankId: string, context: PolicyContext, enabled: boolean) {
  return useEndpointQuery(policy.resolve, { params: { bank_id: bankId }, query: context }, { enabled, placeholderData: keepPreviousData });
}
