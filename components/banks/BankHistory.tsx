"use client";
import { Code, Text } from "@mantine/core";
import { ResourceTable } from "@/components/console/ResourceTable";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { Table } from "@/components/console/Table";
import { formatTimestamp } from "@/lib/client/format";
import { useBankHistory } from "@/lib/client/hooks/banks";
import type { ImportResult } from "@/lib/contracts/banks/schemas";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

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

/** Every template applied to the bank through this server, newest first. */
export function BankHistory({ bankId }: { bankId: string }) {
  const history = useBankHistory(bankId);
  if (history.isPending) return <LoadingState label="Loading the history…" />;
  if (history.isError) return <ErrorState title="Could not load the history" error={history.error} onRetry={() => history.refetch()} />;
  // TODO(issue 20, policy history): policy entries get their own rows.
  const entries = history.data.entries.filter((entry) => entry.kind === "import");
  if (entries.length === 0) {
    return <EmptyList title="No imports yet" description="Templates applied to this bank through this server are listed here." />;
  }
  return (
    <ResourceTable
      minWidth={640}
      verticalSpacing="xs"
      testId="bank-history"
      caption="Templates applied to this bank, newest first"
      columns={[{ label: "Applied" }, { label: "Template" }, { label: "Revision" }, { label: "By" }, { label: "What it did" }]}
    >
      {entries.map((entry) => (
        <Table.Tr key={entry.id}>
          <Table.Th scope="row" fw={400}>
            <Text size="sm" style={{ whiteSpace: "nowrap" }}>
              {formatTimestamp(entry.applied_at)}
            </Text>
          </Table.Th>
          <Table.Td>
            <Code style={{ wordBreak: "break-word" }}>{entry.template}</Code>
          </Table.Td>
          <Table.Td>
            {entry.source_revision ? (
              <Code title={entry.source_revision}>{entry.source_revision.slice(0, 8)}</Code>
            ) : (
              <Text size="sm" c="dimmed">
                none
              </Text>
            )}
          </Table.Td>
          <Table.Td>
            <Text size="sm">{entry.actor}</Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{importSummary(entry.import_result)}</Text>
          </Table.Td>
        </Table.Tr>
      ))}
    </ResourceTable>
  );
}
