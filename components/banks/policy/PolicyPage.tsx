"use client";
import { Code } from "@mantine/core";
import { lazySection } from "@/components/console/lazy";
import { PageHeader } from "@/components/console/PageHeader";
import { ErrorState, LoadingState } from "@/components/console/states";
import { useBank } from "@/lib/client/hooks/banks";
import { useBankPolicy } from "@/lib/client/hooks/policy";
import { BankBreadcrumbs } from "../BankBreadcrumbs";
import type { PolicyDraft } from "./policy-document";

// The editor (form, JSON, resolve preview) shows once the bank and its policy arrived; its
// code loads alongside them.
const PolicyEditor = lazySection(() => import("./PolicyEditor").then((m) => m.PolicyEditor), <LoadingState label="Loading the policy…" />);

/**
 * A bank's policy: the editor (form and JSON) and the resolve preview. The bank's detail says
 * whether it has a policy; only then is the policy asked for (a bank without one starts from
 * an empty document, with no 404 on the way).
 */
export function PolicyPage({ bankId }: { bankId: string }) {
  const bank = useBank(bankId);
  const hasPolicy = bank.data?.has_policy ?? false;
  const policy = useBankPolicy(bankId, hasPolicy);
  return (
    <>
      <BankBreadcrumbs bankId={bankId} page="Policy" />
      <PageHeader
        title="Bank policy"
        description={
          <>
            Which strategy <Code>{bankId}</Code> uses and what public callers may do, by provider, channel and topic.
          </>
        }
      />
      {bank.isPending || (hasPolicy && policy.isPending) ? (
        <LoadingState label="Loading the policy…" />
      ) : bank.isError ? (
        <ErrorState
          title={
            bank.error.status === 404
              ? "Bank not found: you may not manage this bank's policy"
              : bank.error.status === 403
                ? "You may not manage this bank's policy"
                : "Could not load the bank"
          }
          error={bank.error}
          onRetry={bank.error.status === 403 || bank.error.status === 404 ? undefined : () => bank.refetch()}
        />
      ) : hasPolicy && policy.isError ? (
        <ErrorState
          title={policy.error.status === 403 ? "You may not manage this bank's policy" : "Could not load the policy"}
          error={policy.error}
          onRetry={policy.error.status === 403 ? undefined : () => policy.refetch()}
        />
      ) : (
        <PolicyEditor bankId={bankId} saved={hasPolicy ? ((policy.data?.document as PolicyDraft | undefined) ?? null) : null} />
      )}
    </>
  );
}
