import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PolicyContext } from "@/lib/contracts/policy/schemas";
import { api, type CallResult } from "../api";
import { endpoints } from "../endpoints";
import { entityTagOf, keepEntityTag } from "../entity-tag";
import { type ApiProblem, nullWhenMissing } from "../problem";
import { endpointQueryKey, useEndpointQuery } from "../query";

const { policy, banks } = endpoints;

type Policy = CallResult<typeof policy.get>;

const policyKey = (bankId: string) => endpointQueryKey(policy.get, { params: { bank_id: bankId } });
const bankKey = (bankId: string) => endpointQueryKey(banks.get, { params: { bank_id: bankId } });
const historyKey = (bankId: string) => endpointQueryKey(banks.history, { params: { bank_id: bankId } });
const resolveKeyPrefix = (bankId: string) => ["ext-svc", policy.resolve.method, policy.resolve.path, { bank_id: bankId }] as const;

const readPolicy = (bankId: string): Promise<Policy | null> => nullWhenMissing(api.call(policy.get, { params: { bank_id: bankId } }));

/**
 * A bank's policy document, or null when the bank has none. Only asked for when the bank's
 * detail says `has_policy` (pass `enabled: false` otherwise), so a bank without a policy
 * costs no 404; should the policy vanish in between, a 404 still reads as "none".
 */
export function useBankPolicy(bankId: string, enabled: boolean) {
  return useQuery<Policy | null, ApiProblem>({
    queryKey: policyKey(bankId),
    enabled,
    queryFn: () => readPolicy(bankId),
  });
}

type PolicyChange = Extract<CallResult<typeof banks.history>["entries"][number], { kind: "policy" }>;

/**
 * For a save refused because the policy changed meanwhile: the policy as it is now (null: none),
 * read again so every view of it follows, and the bank's policy changes, newest first (null
 * when the history cannot be read: who changed it is then not known).
 */
export function useReadPolicyNow(bankId: string) {
  const queryClient = useQueryClient();
  return async (): Promise<{ now: Policy | null; changes: PolicyChange[] | null }> => {
    const now = await queryClient.fetchQuery({ queryKey: policyKey(bankId), queryFn: () => readPolicy(bankId), staleTime: 0 });
    void queryClient.invalidateQueries({ queryKey: bankKey(bankId) });
    const history = await queryClient
      .fetchQuery({ queryKey: historyKey(bankId), queryFn: () => api.call(banks.history, { params: { bank_id: bankId } }), staleTime: 0 })
      .catch(() => null);
    const changes = history ? history.entries.filter((entry): entry is PolicyChange => entry.kind === "policy") : null;
    return { now, changes };
  };
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

/**
 * The version of the policy a write was made from (CONTRACT §19): its ETag, or `none` when the
 * editor showed no policy (sent as If-None-Match: *, create only). Undefined: whatever it is now.
 */
export type PolicyVersion = string | "none" | undefined;

/** The ETag of a policy as useBankPolicy holds it: `none` for no policy. */
export const policyVersionOf = (stored: Policy | null | undefined): PolicyVersion => (stored === null ? "none" : entityTagOf(stored));

/** Saves (PUT) a bank's policy, if it is still at `version` (else 412 `precondition-failed`, nothing written). */
export function useSavePolicy(bankId: string) {
  const queryClient = useQueryClient();
  return useMutation<Policy, ApiProblem, { document: unknown; version: PolicyVersion }>({
    mutationFn: ({ document, version }) =>
      api.call(policy.put, {
        params: { bank_id: bankId },
        body: { document: document as never },
        ...(version === "none" ? { ifNoneMatch: "*" } : { ifMatch: version }),
      }),
    onSuccess: (saved) => afterPolicyWrite(queryClient, bankId, saved),
  });
}

/** Deletes a bank's policy, if it is still at `version` (its ETag). */
export function useDeletePolicy(bankId: string) {
  const queryClient = useQueryClient();
  return useMutation<void, ApiProblem, string | undefined>({
    mutationFn: (version) => api.call(policy.remove, { params: { bank_id: bankId }, ifMatch: version }),
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
  return useMutation<RestoredPolicy, ApiProblem, { entry: string; version: string | undefined }>({
    mutationFn: ({ entry, version }) => api.call(policy.restore, { params: { bank_id: bankId }, body: { entry }, ifMatch: version }),
    onSuccess: (restored) => {
      if (restored.document === null) return afterPolicyWrite(queryClient, bankId, null);
      const now = { bank_id: restored.bank_id, document: restored.document };
      // The restore answers the policy's new ETag, which the policy as cached keeps.
      keepEntityTag(now, entityTagOf(restored));
      return afterPolicyWrite(queryClient, bankId, now);
    },
  });
}

/** What the saved policy grants in one context; off while `enabled` is false (no policy saved). */
export function useResolvedPolicy(bankId: string, context: PolicyContext, enabled: boolean) {
  return useEndpointQuery(policy.resolve, { params: { bank_id: bankId }, query: context }, { enabled, placeholderData: keepPreviousData });
}
