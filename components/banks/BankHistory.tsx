"use client";
import { Anchor, Code, Text } from "@mantine/core";
import Link from "next/link";
import { ResourceTable } from "@/components/console/ResourceTable";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { Table } from "@/components/console/Table";
import { formatTimestamp } from "@/lib/client/format";
import { useBankHistory } from "@/lib/client/hooks/banks";
import type { ImportResult } from "@/lib/contracts/banks/schemas";
import { plural } from "@/lib/shared/plural";
import { policyHistoryHref } from "./links";
import { type HistoryEntry, type PolicyChange, type PolicyChangeKind, policyChangeKind } from "./policy/policy-change";

/** What one import did, in a line: "config; 2 mental models created, 1 updated; 1 directive created". */
function importSummary(result: ImportResult): string {
  const counted = (created: string[], updated: string[], one: string, many: string) => {
    const parts = [
      created.length && `${plural(created.length, one, many)} created`,
      updated.length && `${plural(updated.length, one, many)} updated`,
    ];
    return parts.filter(Boolean).join(", ");
  };
  const parts = [
    result.config_applied ? "config applied" : "",
    counted(result.mental_models_created, result.mental_models_updated, "mental model", "mental models"),
    counted(result.directives_created, result.directives_updated, "directive", "directives"),
  ].filter(Boolean);
  return parts.length ? parts.join("; ") : "nothing";
}

const POLICY_ROW: Record<PolicyChangeKind, { what: string; did: string }> = {
  created: { what: "Policy changed", did: "set a policy where there was none" },
  changed: { what: "Policy changed", did: "replaced the policy" },
  deleted: { what: "Policy deleted", did: "deleted the policy" },
  restored: { what: "Policy restored", did: "restored the policy as an earlier change left it" },
};

/**
 * Every template applied to the bank through this server and every change of its policy, newest
 * first; a policy change links to the policy's History tab, which shows what it changed.
 */
export function BankHistory({ bankId }: { bankId: string }) {
  const history = useBankHistory(bankId);
  if (history.isPending) return <LoadingState label="Loading the history…" />;
  if (history.isError) return <ErrorState title="Could not load the history" error={history.error} onRetry={() => history.refetch()} />;
  const { entries } = history.data;
  if (entries.length === 0) {
    return (
      <EmptyList
        title="No history yet"
        description="Templates applied to this bank through this server and changes of its policy are listed here."
      />
    );
  }
  return (
    <ResourceTable
      minWidth={640}
      verticalSpacing="xs"
      testId="bank-history"
      caption="Templates applied to this bank and changes of its policy, newest first"
      columns={[{ label: "When" }, { label: "What" }, { label: "Revision" }, { label: "By" }, { label: "What it did" }]}
    >
      {entries.map((entry) =>
        entry.kind === "import" ? <ImportRow key={entry.id} entry={entry} /> : <PolicyRow key={entry.id} bankId={bankId} entry={entry} />,
      )}
    </ResourceTable>
  );
}

function When({ at }: { at: string }) {
  return (
    <Table.Th scope="row" fw={400}>
      <Text size="sm" style={{ whiteSpace: "nowrap" }} title={at}>
        {formatTimestamp(at)}
      </Text>
    </Table.Th>
  );
}

const none = (
  <Text size="sm" c="dimmed">
    none
  </Text>
);

function ImportRow({ entry }: { entry: Extract<HistoryEntry, { kind: "import" }> }) {
  return (
    <Table.Tr>
      <When at={entry.applied_at} />
      <Table.Td>
        <Code style={{ wordBreak: "break-word" }}>{entry.template}</Code>
      </Table.Td>
      <Table.Td>{entry.source_revision ? <Code title={entry.source_revision}>{entry.source_revision.slice(0, 8)}</Code> : none}</Table.Td>
      <Table.Td>
        <Text size="sm">{entry.actor}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{importSummary(entry.import_result)}</Text>
      </Table.Td>
    </Table.Tr>
  );
}

function PolicyRow({ bankId, entry }: { bankId: string; entry: PolicyChange }) {
  const row = POLICY_ROW[policyChangeKind(entry)];
  return (
    <Table.Tr data-testid="bank-history-policy">
      <When at={entry.at} />
      <Table.Td>
        <Anchor component={Link} href={policyHistoryHref(bankId)} size="sm">
          {row.what}
        </Anchor>
      </Table.Td>
      <Table.Td>{none}</Table.Td>
      <Table.Td>
        <Text size="sm">{entry.actor}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{row.did}</Text>
      </Table.Td>
    </Table.Tr>
  );
}
