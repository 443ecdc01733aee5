"use client";
import { Alert, Anchor, Badge, Button, Group, List, Modal, Progress, Stack, Text, ThemeIcon } from "@mantine/core";
import { IconAlertTriangle, IconCheck, IconX } from "@tabler/icons-react";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { ImportPreview } from "@/components/banks/ImportPreview";
import { bankHref } from "@/components/banks/links";
import { type BankRolloutOutcome, useBankRollout } from "@/lib/client/hooks/banks";

interface RolloutModalProps {
  opened: boolean;
  onClose: () => void;
  /** The template's ref, `personal/{id}` or `server/{id}`. */
  template: string;
  /** "version 7", or "the current version" when the caller cannot read the versions. */
  version: string;
  /** The banks to roll out to, as they were when the dialog opened. */
  bankIds: string[];
}

/**
 * A rollout in two steps (CONTRACT §16): a dry run of every bank first, each bank's changes shown as
 * the bank's own apply preview shows them; then Apply, bank by bank so the progress bar is real,
 * with each bank's result, an honest summary, and a retry of just the banks that failed.
 */
export function RolloutModal({ opened, onClose, template, version, bankIds }: RolloutModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Roll out ${version} of ${template}`} size="xl" centered>
      {/* Mounted while open: each opening starts again from the preview. */}
      {opened && <RolloutSteps template={template} bankIds={bankIds} onClose={onClose} />}
    </Modal>
  );
}

type Stage = "previewing" | "previewed" | "applying" | "done";

/** Runs `work` for each bank in turn, reporting each outcome as it comes; stops when `cancelled()` says so. */
async function eachBank(
  bankIds: string[],
  work: (bankId: string) => Promise<BankRolloutOutcome>,
  report: (outcome: BankRolloutOutcome) => void,
  cancelled: () => boolean,
) {
  for (const bankId of bankIds) {
    if (cancelled()) return;
    const outcome = await work(bankId);
    if (cancelled()) return;
    report(outcome);
  }
}

function RolloutSteps({ template, bankIds, onClose }: { template: string; bankIds: string[]; onClose: () => void }) {
  const { rolloutOne, refresh } = useBankRollout();
  const [stage, setStage] = useState<Stage>("previewing");
  const [previews, setPreviews] = useState<BankRolloutOutcome[]>([]);
  /** Every bank's latest apply outcome, in the order of `bankIds` once done. */
  const [outcomes, setOutcomes] = useState<Map<string, BankRolloutOutcome>>(new Map());
  /** The banks of the current apply run (all of them, or those retried). */
  const [running, setRunning] = useState<string[]>([]);
  const [doneInRun, setDoneInRun] = useState(0);
  /** Set once the dialog closed: no further bank is started. */
  const closed = useRef(false);
  useEffect(() => {
    closed.current = false;
    return () => {
      closed.current = true;
    };
  }, []);

  useEffect(() => {
    let stopped = false;
    setPreviews([]);
    void eachBank(
      bankIds,
      (bankId) => rolloutOne(template, bankId, true),
      (outcome) => setPreviews((list) => [...list, outcome]),
      () => stopped,
    ).then(() => {
      if (!stopped) setStage("previewed");
    });
    return () => {
      stopped = true;
    };
  }, [bankIds, template, rolloutOne]);

  const apply = async (targets: string[]) => {
    setStage("applying");
    setRunning(targets);
    setDoneInRun(0);
    await eachBank(
      targets,
      (bankId) => rolloutOne(template, bankId, false),
      (outcome) => {
        setOutcomes((map) => new Map(map).set(outcome.bankId, outcome));
        setDoneInRun((n) => n + 1);
      },
      () => closed.current,
    );
    await refresh();
    setStage("done");
  };

  if (stage === "previewing" || stage === "previewed") {
    const failedPreviews = previews.filter((preview) => !preview.applied);
    return (
      <Stack data-testid="rollout-preview">
        <Text size="sm">A dry run of each bank: what applying {template} would change. Nothing has been written yet.</Text>
        {stage === "previewing" && (
          <Progress.Root size="lg">
            <Progress.Section
              value={(previews.length / Math.max(bankIds.length, 1)) * 100}
              aria-label={`Previewing ${previews.length} of ${bankIds.length} banks`}
            >
              <Progress.Label>
                {previews.length} of {bankIds.length}
              </Progress.Label>
            </Progress.Section>
          </Progress.Root>
        )}
        {previews.map((preview) =>
          preview.result?.import_result && preview.result.changes ? (
            <ImportPreview
              key={preview.bankId}
              result={preview.result.import_result}
              changes={preview.result.changes}
              template={template}
              bankId={preview.bankId}
              existing
              dryRun
            />
          ) : (
            <Alert key={preview.bankId} color="red" icon={<IconAlertTriangle aria-hidden />} title={`${preview.bankId}: would fail`}>
              {preview.reason}
            </Alert>
          ),
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={stage !== "previewed"} onClick={() => apply(bankIds)}>
            Apply to {bankIds.length} bank{bankIds.length === 1 ? "" : "s"}
            {failedPreviews.length > 0 ? ` (${failedPreviews.length} may fail)` : ""}
          </Button>
        </Group>
      </Stack>
    );
  }

  const results = bankIds.flatMap((bankId) => {
    const outcome = outcomes.get(bankId);
    return outcome ? [outcome] : [];
  });
  const applied = results.filter((outcome) => outcome.applied);
  const failed = results.filter((outcome) => !outcome.applied);
  return (
    <Stack data-testid="rollout-apply">
      <Progress.Root size="lg">
        <Progress.Section
          value={(doneInRun / Math.max(running.length, 1)) * 100}
          color={failed.length ? "orange" : "blue"}
          aria-label={`Applied ${doneInRun} of ${running.length} banks`}
        >
          <Progress.Label>
            {doneInRun} of {running.length}
          </Progress.Label>
        </Progress.Section>
      </Progress.Root>
      {stage === "done" && (
        <Alert
          color={failed.length === 0 ? "green" : applied.length === 0 ? "red" : "orange"}
          role="status"
          title="Rollout finished"
          data-testid="rollout-summary"
        >
          {applied.length} applied, {failed.length} failed.
        </Alert>
      )}
      <List spacing="xs" size="sm" aria-label="Result per bank" data-testid="rollout-results" listStyleType="none">
        {results.map((outcome) => (
          <List.Item
            key={outcome.bankId}
            icon={
              <ThemeIcon size="sm" radius="xl" color={outcome.applied ? "green" : "red"} aria-hidden>
                {outcome.applied ? <IconCheck size={12} /> : <IconX size={12} />}
              </ThemeIcon>
            }
          >
            <Group gap="xs" wrap="wrap">
              <Anchor component={Link} href={bankHref(outcome.bankId)} size="sm" ff="monospace">
                {outcome.bankId}
              </Anchor>
              <Badge size="sm" variant="light" color={outcome.applied ? "green" : "red"}>
                {outcome.applied ? "applied" : "failed"}
              </Badge>
            </Group>
            {outcome.reason && (
              <Text size="sm" c="red" style={{ wordBreak: "break-word" }}>
                {outcome.reason}
              </Text>
            )}
          </List.Item>
        ))}
      </List>
      <Group justify="flex-end">
        {stage === "done" && failed.length > 0 && (
          <Button variant="light" onClick={() => apply(failed.map((outcome) => outcome.bankId))}>
            Retry failed ({failed.length})
          </Button>
        )}
        <Button variant={stage === "done" ? "filled" : "default"} onClick={onClose} disabled={stage !== "done"}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
