"use client";
import { Accordion, Badge, Button, Code, Group, Stack, Text } from "@mantine/core";
import { IconArrowBackUp } from "@tabler/icons-react";
import { AuditChanges } from "@/components/admin/AuditChanges";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { useConfirm } from "@/components/console/useConfirm";
import { useBankHistory } from "@/lib/client/hooks/banks";
import { useRestorePolicy } from "@/lib/client/hooks/policy";
import { plural } from "@/lib/shared/plural";
import { formatChangeTime, type PolicyChange, type PolicyChangeKind, policyChangeKind, versionLeftBy } from "./policy-change";

const KIND: Record<PolicyChangeKind, { label: string; color: string }> = {
  created: { label: "Created", color: "green" },
  changed: { label: "Changed", color: "blue" },
  deleted: { label: "Deleted", color: "red" },
  restored: { label: "Restored", color: "violet" },
};

/** What a restore of `change` will do, in a sentence. */
const restoreOutcome = (change: PolicyChange) =>
  change.after === null ? "deletes the bank's policy, as this change did" : "puts back the policy document this change left";

interface Props {
  bankId: string;
  /** The policy's version as the page shows it (its ETag; undefined: none), which a restore is made against. */
  version: string | undefined;
  /** After a restore: the change restored and the document the bank now has (null: none). */
  onRestored: (change: PolicyChange, document: unknown) => void;
}

/**
 * Every change of the bank's policy, newest first (the bank's history without its imports): who
 * made it and when, the document before and after as a diff, and a restore of what an earlier
 * change left. The newest change is the policy as it is now, so it has nothing to restore.
 */
export function PolicyHistory({ bankId, version, onRestored }: Props) {
  const history = useBankHistory(bankId);
  const restore = useRestorePolicy(bankId);
  const confirmRestore = useConfirm<PolicyChange>({
    title: "Restore this policy?",
    confirmLabel: "Restore",
    message: (change) => (
      <>
        Restoring the change of <strong>{formatChangeTime(change.at)}</strong> by <Code>{change.actor}</Code> {restoreOutcome(change)}.
        Unsaved edits in the editor are discarded. The restore is recorded as a new change, so it can be undone the same way.
      </>
    ),
    onConfirm: async (change) => {
      const restored = await restore.mutateAsync({ entry: change.id, version });
      onRestored(change, restored.document);
    },
  });

  if (history.isPending) return <LoadingState label="Loading the policy's history…" />;
  if (history.isError) return <ErrorState title="Could not load the history" error={history.error} onRetry={() => history.refetch()} />;
  const changes = history.data.entries.filter((entry): entry is PolicyChange => entry.kind === "policy");
  if (changes.length === 0) {
    return <EmptyList title="No policy changes yet" description="Each save and deletion of this bank's policy is listed here." />;
  }
  const byId = new Map(changes.map((change) => [change.id, change]));
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {plural(changes.length, "change")} of this bank&apos;s policy, newest first. Open one to see what it changed.
      </Text>
      {/* Keyed by the newest change: the list may first show a cached answer, then a newer change on top, which opens instead. */}
      <Accordion key={changes[0]!.id} variant="separated" multiple defaultValue={[changes[0]!.id]} data-testid="policy-history">
        {changes.map((change, index) => {
          const kind = KIND[policyChangeKind(change)];
          const restored = change.restored_from === null ? undefined : byId.get(change.restored_from);
          return (
            <Accordion.Item key={change.id} value={change.id} data-testid="policy-change">
              <Accordion.Control>
                <Group gap="xs" wrap="wrap">
                  <Badge color={kind.color} variant="light">
                    {kind.label}
                  </Badge>
                  <Text size="sm" title={change.at}>
                    {formatChangeTime(change.at)}
                  </Text>
                  <Text size="sm" c="dimmed">
                    by {change.actor}
                  </Text>
                  {index === 0 && (
                    <Badge color="green" variant="filled" size="sm">
                      Current
                    </Badge>
                  )}
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="sm">
                  {change.restored_from !== null && (
                    <Text size="sm">Restored the policy to {restored ? versionLeftBy(restored) : "an earlier version"}.</Text>
                  )}
                  <AuditChanges before={change.before} after={change.after} />
                  {index > 0 && (
                    <Group>
                      <Button
                        size="xs"
                        variant="light"
                        leftSection={<IconArrowBackUp size={14} aria-hidden />}
                        onClick={() => confirmRestore.ask(change)}
                        aria-label={`Restore this: the policy as the change of ${formatChangeTime(change.at)} left it`}
                      >
                        Restore this
                      </Button>
                    </Group>
                  )}
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          );
        })}
      </Accordion>
      {confirmRestore.modal}
    </Stack>
  );
}
