"use client";
import { Alert, Code, Tabs } from "@mantine/core";
import { IconCircleCheck, IconEdit, IconHistory } from "@tabler/icons-react";
import { parseAsStringLiteral, useQueryState } from "nuqs";
import { useState } from "react";
import { lazySection } from "@/components/console/lazy";
import { PageHeader } from "@/components/console/PageHeader";
import { ErrorState, LoadingState } from "@/components/console/states";
import { withUrlState } from "@/components/console/url-state";
import { entityTagOf } from "@/lib/client/entity-tag";
import { useBank } from "@/lib/client/hooks/banks";
import { policyVersionOf, useBankPolicy } from "@/lib/client/hooks/policy";
import { BankBreadcrumbs } from "../BankBreadcrumbs";
import { formatChangeTime, type PolicyChange, versionLeftBy } from "./policy-change";
import type { PolicyDraft } from "./policy-document";

// The editor (form, JSON, resolve preview) shows once the bank and its policy arrived; its
// code loads alongside them. The History tab's code loads when it is first opened.
const PolicyEditor = lazySection(() => import("./PolicyEditor").then((m) => m.PolicyEditor), <LoadingState label="Loading the policy…" />);
const PolicyHistory = lazySection(
  () => import("./PolicyHistory").then((m) => m.PolicyHistory),
  <LoadingState label="Loading the policy's history…" />,
);

const TABS = ["editor", "history"] as const;

/** What the last restore did, for its notice: the change whose policy it put back, and whether that was none. */
interface Restored {
  change: PolicyChange;
  deleted: boolean;
}

/**
 * A bank's policy: the editor (form and JSON) with the resolve preview, and the History of its
 * changes, from which an earlier policy can be restored. The bank's detail says whether it has
 * a policy; only then is the policy asked for (a bank without one starts from an empty
 * document, with no 404 on the way).
 */
function PolicyPageView({ bankId }: { bankId: string }) {
  const bank = useBank(bankId);
  const hasPolicy = bank.data?.has_policy ?? false;
  const policy = useBankPolicy(bankId, hasPolicy);
  // `?tab=history` (the editor when absent): the bank's history links there. Replaced, not
  // pushed: Back leaves the page, as the editor's leave guard expects.
  const [tab, setTab] = useQueryState("tab", parseAsStringLiteral(TABS).withDefault("editor"));
  const [restored, setRestored] = useState<Restored | null>(null);
  // A restore replaces the editor's document: a new key starts it afresh from the restored one.
  const [editorGeneration, setEditorGeneration] = useState(0);

  const onRestored = (change: PolicyChange, document: unknown) => {
    setRestored({ change, deleted: document === null });
    setEditorGeneration((n) => n + 1);
    void setTab(null);
  };

  const body =
    bank.isPending || (hasPolicy && policy.isPending) ? (
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
      <Tabs value={tab} onChange={(value) => void setTab(value === "history" ? "history" : null)}>
        <Tabs.List mb="md">
          <Tabs.Tab value="editor" leftSection={<IconEdit size={16} aria-hidden />}>
            Editor
          </Tabs.Tab>
          <Tabs.Tab value="history" leftSection={<IconHistory size={16} aria-hidden />}>
            History
          </Tabs.Tab>
        </Tabs.List>
        {/* The editor stays mounted behind the History tab, unsaved edits with it. */}
        <Tabs.Panel value="editor">
          <PolicyEditor
            key={editorGeneration}
            bankId={bankId}
            saved={hasPolicy ? ((policy.data?.document as PolicyDraft | undefined) ?? null) : null}
            version={hasPolicy ? policyVersionOf(policy.data) : "none"}
            bankConfig={bank.data?.config}
          />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          {tab === "history" && (
            <PolicyHistory bankId={bankId} version={hasPolicy ? entityTagOf(policy.data) : undefined} onRestored={onRestored} />
          )}
        </Tabs.Panel>
      </Tabs>
    );

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
      {restored && (
        <Alert
          color="green"
          icon={<IconCircleCheck aria-hidden />}
          role="status"
          title={`Policy restored to ${versionLeftBy(restored.change)}`}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setRestored(null)}
          mb="md"
          data-testid="policy-restored"
        >
          {restored.deleted
            ? `The bank has no policy now, as after the change of ${formatChangeTime(restored.change.at)}.`
            : `The policy is the document the change of ${formatChangeTime(restored.change.at)} left; the editor shows it.`}
        </Alert>
      )}
      {body}
    </>
  );
}

export const PolicyPage = withUrlState(PolicyPageView);
