"use client";
import { Alert, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { Suspense, useEffect, useState } from "react";
import { FormError, LoadingState } from "@/components/console/states";
import { formatJson } from "@/components/templates/json-text";
import { LazyManifestDiff } from "@/components/templates/LazyManifestDiff";
import { entityTagOf } from "@/lib/client/entity-tag";
import { formatTimestamp } from "@/lib/client/format";
import { useBank, useRestoreBank } from "@/lib/client/hooks/banks";
import { ApiProblem, describeError } from "@/lib/client/problem";
import type { RestoreChanges } from "@/lib/contracts/banks/schemas";
import { plural } from "@/lib/shared/plural";

/** The entry of the history a restore goes back to: its id and, in words, what it was and when. */
export interface RestoreTarget {
  id: string;
  what: string;
  at: string;
}

/**
 * What a restore changes as the two sides of a diff: the bank now and after, only what differs, each
 * mental model and directive by its key (null where the bank has none), as an edit's history entry shows them.
 */
export function restoreSides(changes: RestoreChanges) {
  const side = (which: "before" | "after") => ({
    ...(changes.config.length ? { config: Object.fromEntries(changes.config.map((c) => [c.field, c[which]])) } : {}),
    ...(changes.mental_models.length ? { mental_models: Object.fromEntries(changes.mental_models.map((c) => [c.id, c[which]])) } : {}),
    ...(changes.directives.length ? { directives: Object.fromEntries(changes.directives.map((c) => [c.name, c[which]])) } : {}),
  });
  return { before: formatJson(side("before")), after: formatJson(side("after")) };
}

const changeCount = (changes: RestoreChanges) => changes.config.length + changes.mental_models.length + changes.directives.length;

/**
 * "Restore this" (CONTRACT §21): a dry run of the restore first, its changes as a diff of the bank
 * now and after, then the restore itself, against the bank as it was previewed (If-Match: a change
 * meanwhile is refused, and the preview is asked again).
 */
export function RestoreBankModal({
  opened,
  bankId,
  target,
  onClose,
}: {
  opened: boolean;
  bankId: string;
  target: RestoreTarget | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened && target !== null} onClose={onClose} title="Restore the bank's content" size="xl" centered>
      {target && <RestoreSteps bankId={bankId} target={target} onClose={onClose} />}
    </Modal>
  );
}

function RestoreSteps({ bankId, target, onClose }: { bankId: string; target: RestoreTarget; onClose: () => void }) {
  const bank = useBank(bankId);
  const preview = useRestoreBank();
  const restore = useRestoreBank();
  /** The bank's version the preview was made against, sent with the restore. */
  const [previewedAt, setPreviewedAt] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const version = entityTagOf(bank.data);
  const { mutate: runPreview } = preview;

  // The preview is asked again whenever the bank changed (a restore refused for a change meanwhile reads it again).
  useEffect(() => {
    if (version === undefined) return;
    setPreviewedAt(version);
    runPreview({ params: { bank_id: bankId }, query: { dry_run: "true" }, body: { entry: target.id } });
  }, [bankId, target.id, version, runPreview]);

  const apply = async () => {
    setError(null);
    try {
      await restore.mutateAsync({ params: { bank_id: bankId }, body: { entry: target.id }, ifMatch: previewedAt });
      onClose();
    } catch (failure) {
      const changedMeanwhile = failure instanceof ApiProblem && failure.status === 412;
      setError(
        changedMeanwhile
          ? "The bank changed since this preview, so nothing was restored. The preview below is of the bank as it is now: check it and restore again."
          : describeError(failure),
      );
      if (changedMeanwhile) await bank.refetch();
    }
  };

  const changes = preview.data?.changes;
  const count = changes ? changeCount(changes) : 0;
  return (
    <Stack gap="sm" data-testid="bank-restore">
      <Text size="sm">
        Puts back this bank's config, mental models and directives as they were right after <strong>{target.what}</strong> of{" "}
        {formatTimestamp(target.at)}, as one more entry of its history. Its policy is not touched.
      </Text>
      {bank.isError && <FormError message={`Could not read the bank: ${describeError(bank.error)}`} />}
      {(bank.isPending || preview.isPending) && <LoadingState label="Working out what the restore changes…" />}
      {preview.isError && (
        <Alert color="red" title="The restore cannot be previewed" data-testid="bank-restore-problem">
          <Text size="sm" style={{ wordBreak: "break-word" }}>
            {describeError(preview.error)}
          </Text>
        </Alert>
      )}
      {changes && (
        <Stack gap="xs" data-testid="bank-restore-preview">
          <Text size="sm" fw={500}>
            {count === 0
              ? "The bank already holds that content: restoring changes nothing."
              : `Restoring changes ${plural(count, "thing")}: the bank now, and after the restore.`}
          </Text>
          {count > 0 && (
            <Suspense fallback={<LoadingState label="Loading the diff…" />}>
              <LazyManifestDiff {...restoreSides(changes)} beforeLabel="the bank now" afterLabel="after the restore" />
            </Suspense>
          )}
        </Stack>
      )}
      <FormError message={error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={apply} loading={restore.isPending} disabled={!changes || count === 0}>
          Restore
        </Button>
      </Group>
    </Stack>
  );
}
