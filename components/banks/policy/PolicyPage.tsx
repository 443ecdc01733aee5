"use client";
import { Code } from "@mantine/core";
import { PageHeader } from "@/components/console/PageHeader";
import { ErrorState, LoadingState } from "@/components/console/states";
import { useBankPolicy } from "@/lib/client/hooks/policy";
import { BankBreadcrumbs } from "../BankBreadcrumbs";
import { PolicyEditor } from "./PolicyEditor";
import type { PolicyDraft } from "./policy-document";

/** A bank's policy: the editor (form and JSON) and the resolve preview. */
export function PolicyPage({ bankId }: { bankId: string }) {
  const policy = useBankPolicy(bankId);
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
      {policy.isPending ? (
        <LoadingState label="Loading the policy…" />
      ) : policy.isError ? (
        <ErrorState
          title={policy.error.status === 403 ? "You may not manage this bank's policy" : "Could not load the policy"}
          error={policy.error}
          onRetry={policy.error.status === 403 ? undefined : () => policy.refetch()}
        />
      ) : (
        <PolicyEditor bankId={bankId} saved={(policy.data?.document as PolicyDraft | undefined) ?? null} />
      )}
    </>
  );
}
