"use client";
import { Anchor, Button, Code, Collapse, Stack, Text } from "@mantine/core";
import Link from "next/link";
import { Suspense, useId, useState } from "react";
import { lazyModal } from "@/components/console/lazy";
import { ResourceTable } from "@/components/console/ResourceTable";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { Table } from "@/components/console/Table";
import { formatJson } from "@/components/templates/json-text";
import { LazyManifestDiff } from "@/components/templates/LazyManifestDiff";
import { formatTimestamp } from "@/lib/client/format";
import { useBankHistory } from "@/lib/client/hooks/banks";
import { editDid, restoredWhat } from "@/lib/contracts/banks/edit-words";
import type { ImportResult } from "@/lib/contracts/banks/schemas";
import { plural } from "@/lib/shared/plural";
import { policyHistoryHref } from "./links";
import { type HistoryEntry, type PolicyChange, policyChangeKind, versionLeftBy } from "./policy/policy-change";
import type { RestoreTarget } from "./RestoreBankModal";

const RestoreBankModal = lazyModal(() => import("./RestoreBankModal").then((m) => m.RestoreBankModal));

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

/** What a policy change did, in words; a restore names the version it put back, when the history still has its change. */
function policyChangeDid(change: PolicyChange, restored: PolicyChange | undefined): { what: string; did: string } {
  switch (policyChangeKind(change)) {
    case "created":
      return { what: "Policy changed", did: "set a policy where there was none" };
    case "changed":
      return { what: "Policy changed", did: "replaced the policy" };
    case "deleted":
      return { what: "Policy deleted", did: "deleted the policy" };
    case "restored":
      return { what: "Policy restored", did: `restored the policy to ${restored ? versionLeftBy(restored) : "an earlier version"}` };
  }
}

/**
 * Every template applied to the bank through this server and every change of its policy, newest
 * first; a policy change links to the policy's History tab, which shows what it changed. Each entry
 * that left content (an import, an edit, a restore) offers "Restore this" (CONTRACT §21), its changes
 * previewed first.
 */
export function BankHistory({ bankId }: { bankId: string }) {
  const history = useBankHistory(bankId);
  const [restoring, setRestoring] = useState<RestoreTarget | null>(null);
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
  const policyChanges = new Map(entries.flatMap((entry) => (entry.kind === "policy" ? [[entry.id, entry] as const] : [])));
  return (
    <>
      {/* On phones each entry is a card: what it did needs the whole width. */}
      <ResourceTable
        minWidth={640}
        stacked
        verticalSpacing="xs"
        testId="bank-history"
        caption="Templates applied to this bank and changes of its policy, newest first"
        columns={[{ label: "When" }, { label: "What" }, { label: "By" }, { label: "What it did" }]}
      >
        {entries.map((entry) =>
          entry.kind === "import" ? (
            <ImportRow
              key={entry.id}
              entry={entry}
              onRestore={() => setRestoring({ id: entry.id, what: `the apply of ${entry.template}`, at: entry.applied_at })}
            />
          ) : entry.kind !== "policy" ? (
            <ContentRow
              key={entry.id}
              entry={entry}
              onRestore={() => setRestoring({ id: entry.id, what: `this ${entry.kind}`, at: entry.at })}
            />
          ) : (
            <PolicyRow
              key={entry.id}
              bankId={bankId}
              entry={entry}
              restored={entry.restored_from === null ? undefined : policyChanges.get(entry.restored_from)}
            />
          ),
        )}
      </ResourceTable>
      <RestoreBankModal opened={restoring !== null} bankId={bankId} target={restoring} onClose={() => setRestoring(null)} />
    </>
  );
}

/** "Restore this": the bank's content put back as it was right after this entry, once its changes are seen. */
function RestoreButton({ onRestore }: { onRestore: () => void }) {
  return (
    <Button size="compact-xs" variant="subtle" w="fit-content" onClick={onRestore} data-testid="bank-history-restore-this">
      Restore this
    </Button>
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

/** Which version of the template was applied: "version 3, revision 1a2b3c4d"; a hand-made template has no revision. */
function appliedVersion(entry: Extract<HistoryEntry, { kind: "import" }>): string | null {
  const parts = [
    entry.template_version !== null && `version ${entry.template_version}${entry.locally_modified ? " (edited locally)" : ""}`,
    entry.source_revision && `revision ${entry.source_revision.slice(0, 8)}`,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : null;
}

function ImportRow({ entry, onRestore }: { entry: Extract<HistoryEntry, { kind: "import" }>; onRestore: () => void }) {
  const version = appliedVersion(entry);
  return (
    <Table.Tr>
      <When at={entry.applied_at} />
      <Table.Td data-label="What">
        <Code style={{ wordBreak: "break-word" }}>{entry.template}</Code>
        {version && (
          <Text size="xs" c="dimmed" title={entry.source_revision ?? undefined}>
            {version}
          </Text>
        )}
      </Table.Td>
      <Table.Td data-label="By">
        <Text size="sm">{entry.actor}</Text>
      </Table.Td>
      <Table.Td data-label="What it did">
        <Stack gap={4}>
          <Text size="sm">{importSummary(entry.import_result)}</Text>
          <RestoreButton onRestore={onRestore} />
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * An edit or a restore of the bank's content: what it was, who, and what it did in words; an edit
 * (CONTRACT §21) also on request as a diff of before and after.
 */
function ContentRow({ entry, onRestore }: { entry: Extract<HistoryEntry, { kind: "edit" | "restore" }>; onRestore: () => void }) {
  const { at, actor } = entry;
  const edit = entry.kind === "edit";
  const what = edit ? "Edited here" : "Restored";
  const did = edit ? editDid(entry) : restoredWhat(entry);
  const change = edit ? entry : undefined;
  const testId = edit ? "bank-history-edit" : "bank-history-restore";
  const [open, setOpen] = useState(false);
  const diffId = useId();
  return (
    <Table.Tr data-testid={testId}>
      <When at={at} />
      <Table.Td data-label="What">
        <Text size="sm">{what}</Text>
      </Table.Td>
      <Table.Td data-label="By">
        <Text size="sm">{actor}</Text>
      </Table.Td>
      <Table.Td data-label="What it did">
        <Stack gap={4}>
          <Text size="sm">{did}</Text>
          {change && (
            <>
              <Button
                size="compact-xs"
                variant="subtle"
                w="fit-content"
                aria-expanded={open}
                aria-controls={diffId}
                onClick={() => setOpen((o) => !o)}
              >
                {open ? "Hide the change" : "Show the change"}
              </Button>
              <Collapse expanded={open} id={diffId}>
                {open && (
                  <Suspense fallback={<LoadingState label="Loading the diff…" />}>
                    <LazyManifestDiff
                      before={formatJson(change.before)}
                      after={formatJson(change.after)}
                      beforeLabel="Before"
                      afterLabel="After"
                    />
                  </Suspense>
                )}
              </Collapse>
            </>
          )}
          <RestoreButton onRestore={onRestore} />
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

function PolicyRow({ bankId, entry, restored }: { bankId: string; entry: PolicyChange; restored: PolicyChange | undefined }) {
  const row = policyChangeDid(entry, restored);
  return (
    <Table.Tr data-testid="bank-history-policy">
      <When at={entry.at} />
      <Table.Td data-label="What">
        <Anchor component={Link} href={policyHistoryHref(bankId)} size="sm">
          {row.what}
        </Anchor>
      </Table.Td>
      <Table.Td data-label="By">
        <Text size="sm">{entry.actor}</Text>
      </Table.Td>
      <Table.Td data-label="What it did">
        <Text size="sm">{row.did}</Text>
      </Table.Td>
    </Table.Tr>
  );
}
