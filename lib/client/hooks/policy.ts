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
const historyKey = (bankId: string) => endpointQueryKey(banks.history, { params: { bank_id: bankId } });
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

/**
 * After a write of the policy: the cache holds the policy the answer gives (or none) instead of
 * asking again; the bank detail's `has_policy` is set at once and asked for again, resolve
 * previews are refreshed (or dropped: without a policy the API answers them 404), and the bank's
 * history, which gained the write's entry, is asked for again.
 */
async function afterPolicyWrite(queryClient: ReturnType<typeof useQueryClient>, bankId: string, now: Policy | null) {
  queryClient.setQueryData(policyKey(bankId), now);
  if (now === null) queryClient.removeQueries({ queryKey: resolveKeyPrefix(bankId) });
  queryClient.setQueryData<Record<string, unknown>>(bankKey(bankId), (bank) => (bank ? { ...bank, has_policy: now !== null } : bank));
  await Promise.all([
    now === null ? undefined : queryClient.invalidateQueries({ queryKey: resolveKeyPrefix(bankId) }),
    queryClient.invalidateQueries({ queryKey: bankKey(bankId) }),
    queryClient.invalidateQueries({ queryKey: historyKey(bankId) }),
  ]);
}

/** Saves (PUT) a bank's policy. */
export function useSavePolicy(bankId: string) {
  const queryClient = useQueryClient();
  return useMutation<Policy, ApiProblem, unknown>({
    mutationFn: (document) => api.call(policy.put, { params: { bank_id: bankId }, body: { document: document as never } }),
    onSuccess: (saved) => afterPolicyWrite(queryClient, bankId, saved),
  });
}

export function useDeletePolicy(bankId: string) {
  const queryClient = useQueryClient();
  return useMutation<void, ApiProblem, void>({
    mutationFn: () => api.call(policy.remove, { params: { bank_id: bankId } }),
    onSuccess: () => afterPolicyWrite(queryClient, bankId, null),
  });
}

type RestoredPolicy = CallResult<typeof policy.restore>;

/**
 * Restores what a policy entry of the bank's history left (CONTRACT §16): the policy becomes the
 * answer's document, or none when the entry was a deletion.
 */
export function useRestorePolicy(bankId: string) {
  const queryClient = useQueryClient();
  return useMutation<RestoredPolicy, ApiProblem, string>({
    mutationFn: (entry) => api.call(policy.restore, { params: { bank_id: bankId }, body: { entry } }),
    onSuccess: (restored) =>
      afterPolicyWrite(queryClient, bankId, restored.document === null ? null : { bank_id: restored.bank_id, document: restored.document }),
  });
}

/** What the saved policy grants in one context; off while `enabled` is false (no policy saved). */
export function useResolvedPolicy(bankId: string, context: PolicyContext, enabled: boolean) {
  return useEndpointQuery(policy.resolve, { params: { bank_id: bankId }, query: context }, { enabled, placeholderData: keepPreviousData });
}
