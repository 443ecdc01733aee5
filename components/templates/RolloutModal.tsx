"use client";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  List,
  Modal,
  Progress,
  Stack,
  Switch,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import { IconAlertTriangle, IconArrowBackUp, IconCheck, IconX } from "@tabler/icons-react";
import Link from "next/link";
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from "react";
import type { z } from "zod";
import { ImportChangesBody } from "@/components/banks/ImportPreview";
import { bankHref } from "@/components/banks/links";
import { type NewestVersion, rollbackWarning } from "@/components/banks/newest-version";
import { ScrollRegion } from "@/components/console/ScrollRegion";
import { SearchInput } from "@/components/console/SearchInput";
import { type BankRolloutOutcome, useBankRollout, useReadBank } from "@/lib/client/hooks/banks";
import { matchesSearch } from "@/lib/client/search";
import type { BankDetail } from "@/lib/contracts/banks/schemas";
import { resolutionList } from "@/lib/contracts/templates/merge";
import { plural } from "@/lib/shared/plural";
import { type MergeChoice, resolutionsOf } from "./merge-choices";
import { BankConflicts, EditedHereBadge, KeptByMerge } from "./RolloutMerge";
import { groupHeading, groupPreviews, keptByMerge, type MergeFacts, type PreviewGroup } from "./rollout-groups";

/** A bank the rollout may go to: its id and its name. */
export interface RolloutBank {
  bank_id: string;
  name: string;
}

interface RolloutModalProps {
  opened: boolean;
  onClose: () => void;
  /** The template's ref, `personal/{id}` or `server/{id}`. */
  template: string;
  /** The version rolled out, the template's newest (null when not known). */
  newest: NewestVersion | null;
  /** The banks behind the template when the dialog opened: each starts chosen. */
  banks: RolloutBank[];
}

/**
 * A rollout in waves (CONTRACT §16, issue 33): choose the banks (all behind ones to start with), a
 * dry run of those, grouped by identical changes; then Apply, bank by bank so the progress is real,
 * with each bank's result, an honest summary, a retry of just the banks that failed, and the banks
 * not chosen yet offered as the next wave. A rollback is said to be one at every step before Apply.
 * With merge (CONTRACT §21, issue 36) each bank keeps its own edits: the preview marks the banks
 * edited here, says what the merge keeps, and lists each bank's conflicts with a choice per path,
 * sent with that bank's apply.
 */
export function RolloutModal({ opened, onClose, template, newest, banks }: RolloutModalProps) {
  const version = newest ? `version ${newest.version}` : "the current version";
  return (
    <Modal opened={opened} onClose={onClose} title={`Roll out ${version} of ${template}`} size="xl" centered>
      {/* Mounted while open: each opening starts again from the choice of banks. */}
      {opened && <RolloutSteps template={template} newest={newest} banks={banks} onClose={onClose} />}
    </Modal>
  );
}

type Stage = "choosing" | "previewing" | "previewed" | "applying" | "done";

type Bank = z.output<typeof BankDetail>;

/** Banks previewed per request: a dry run of 200 banks is 8 requests, each answering as soon as its banks are read. */
const PREVIEW_STEP = 25;

/** `ids` in steps of `size`. */
const inSteps = (ids: readonly string[], size: number) =>
  Array.from({ length: Math.ceil(ids.length / size) }, (_, i) => ids.slice(i * size, (i + 1) * size));

/** Runs `work` for each step in turn, reporting its outcomes as they come; stops when `cancelled()` says so. */
async function eachStep(
  steps: string[][],
  work: (bankIds: string[]) => Promise<BankRolloutOutcome[]>,
  report: (outcomes: BankRolloutOutcome[]) => void,
  cancelled: () => boolean,
) {
  for (const step of steps) {
    if (cancelled()) return;
    const outcomes = await work(step);
    if (cancelled()) return;
    report(outcomes);
  }
}

function RolloutSteps({
  template,
  newest,
  banks,
  onClose,
}: {
  template: string;
  newest: NewestVersion | null;
  banks: RolloutBank[];
  onClose: () => void;
}) {
  const { rollout, refresh } = useBankRollout();
  const readBank = useReadBank();
  const [stage, setStage] = useState<Stage>("choosing");
  /** Whether each bank keeps its own edits (CONTRACT §21 merge). */
  const [merge, setMerge] = useState(false);
  /** With merge: each previewed bank's edits and what the merge keeps, by bank. */
  const [facts, setFacts] = useState<Map<string, MergeFacts>>(new Map());
  /** With merge: the banks as read for the preview (they name the entries conflicts are in). */
  const [read, setRead] = useState<Map<string, Bank>>(new Map());
  /** With merge: each bank's choice per conflicting path. */
  const [choices, setChoices] = useState<Map<string, Record<string, MergeChoice>>>(new Map());
  /** The banks not yet in a wave, in the order listed: the choice is among these. */
  const [waiting, setWaiting] = useState<RolloutBank[]>(banks);
  /** This wave's banks: chosen, previewed, then applied. */
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(banks.map((bank) => bank.bank_id)));
  const wave = useMemo(() => waiting.filter((bank) => chosen.has(bank.bank_id)).map((bank) => bank.bank_id), [waiting, chosen]);
  const [previews, setPreviews] = useState<BankRolloutOutcome[]>([]);
  /** Every bank's latest apply outcome in this wave. */
  const [outcomes, setOutcomes] = useState<Map<string, BankRolloutOutcome>>(new Map());
  /** The banks of the current apply run (the wave, or those retried). */
  const [running, setRunning] = useState<string[]>([]);
  const [doneInRun, setDoneInRun] = useState(0);
  /** Set once the dialog closed, or the preview was left: no further request is started. */
  const closed = useRef(false);
  const previewRun = useRef(0);
  useEffect(() => {
    closed.current = false;
    return () => {
      closed.current = true;
    };
  }, []);

  /**
   * A merged dry run of a step, with what sets it apart: the same banks without merge (what the merge
   * keeps is where the two differ) and each bank read (whether it was edited here).
   */
  const previewMerge = async (step: string[]) => {
    const [merged, plain, banksRead] = await Promise.all([
      rollout(template, step, true, {}),
      rollout(template, step, true),
      Promise.all(step.map((bankId) => readBank(bankId).catch(() => null))),
    ]);
    const found = new Map<string, MergeFacts>();
    const readNow = new Map<string, Bank>();
    merged.forEach((outcome, i) => {
      const mergedChanges = outcome.result?.changes;
      const plainChanges = plain[i]?.result?.changes;
      const bank = banksRead[i];
      if (bank) readNow.set(outcome.bankId, bank);
      found.set(outcome.bankId, {
        editedHere: bank ? bank.locally_modified : null,
        kept: mergedChanges && plainChanges ? keptByMerge(plainChanges, mergedChanges) : null,
      });
    });
    setFacts((map) => new Map([...map, ...found]));
    setRead((map) => new Map([...map, ...readNow]));
    return merged;
  };

  const preview = async () => {
    const run = ++previewRun.current;
    setStage("previewing");
    setPreviews([]);
    setFacts(new Map());
    await eachStep(
      inSteps(wave, PREVIEW_STEP),
      (step) => (merge ? previewMerge(step) : rollout(template, step, true)),
      (found) => setPreviews((list) => [...list, ...found]),
      () => closed.current || previewRun.current !== run,
    );
    if (previewRun.current === run && !closed.current) setStage("previewed");
  };

  /** The conflicts the preview found for a bank; none when it found none. */
  const conflictsOf = (bankId: string) => previews.find((outcome) => outcome.bankId === bankId)?.result?.problem?.conflicts ?? [];

  /** What a bank's apply sends with merge: the resolutions of its conflicts once each has a valid choice, else none (it then answers 409). */
  const mergeFor = (bankId: string) => {
    const conflicts = conflictsOf(bankId);
    const resolved = conflicts.length ? resolutionsOf(conflicts, choices.get(bankId) ?? {}) : null;
    return { resolutions: resolved ? resolutionList(resolved) : [] };
  };

  /** Whether each conflict the preview found for a bank has a choice its apply can send. */
  const resolved = (bankId: string) => conflictsOf(bankId).length > 0 && mergeFor(bankId).resolutions.length > 0;

  /** Banks whose conflicts are not all chosen: their apply is refused and reported, the others go on. */
  const unresolved = previews.filter((outcome) => conflictsOf(outcome.bankId).length > 0 && !resolved(outcome.bankId)).length;

  const choose = (bankId: string, path: string, choice: MergeChoice) =>
    setChoices((map) => new Map(map).set(bankId, { ...map.get(bankId), [path]: choice }));

  const backToChoice = () => {
    previewRun.current++; // a preview still running stops
    setStage("choosing");
  };

  const apply = async (targets: string[]) => {
    setStage("applying");
    setRunning(targets);
    setDoneInRun(0);
    await eachStep(
      targets.map((bankId) => [bankId]),
      (step) => rollout(template, step, false, merge ? mergeFor(step[0]!) : undefined),
      (found) => {
        setOutcomes((map) => {
          const next = new Map(map);
          for (const outcome of found) next.set(outcome.bankId, outcome);
          return next;
        });
        setDoneInRun((n) => n + found.length);
      },
      () => closed.current,
    );
    await refresh();
    setStage("done");
  };

  /** The next wave: the banks not chosen in this one, all of them chosen to start with. */
  const nextWave = (rest: RolloutBank[]) => {
    setWaiting(rest);
    setChosen(new Set(rest.map((bank) => bank.bank_id)));
    setOutcomes(new Map());
    setPreviews([]);
    setChoices(new Map());
    setStage("choosing");
  };

  const names = useMemo(() => new Map(banks.map((bank) => [bank.bank_id, bank.name])), [banks]);
  const nameOf = (bankId: string) => names.get(bankId) ?? bankId;
  const warning = rollbackWarning(newest, "these banks");
  const warningAlert = warning && (
    <Alert color="grape" icon={<IconArrowBackUp aria-hidden />} title="This version is a rollback" data-testid="rollout-rollback-warning">
      {warning}
    </Alert>
  );

  if (stage === "choosing") {
    return (
      <Stack data-testid="rollout-choose">
        {warningAlert}
        <BankChoice banks={waiting} chosen={chosen} onChange={setChosen} />
        <Switch
          checked={merge}
          onChange={(event) => setMerge(event.currentTarget.checked)}
          label="Keep each bank's own edits (merge)"
          description="Each bank keeps what was edited in it since its last apply and takes the template's other changes; where both changed the same thing you choose, bank by bank."
          data-testid="rollout-merge"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={wave.length === 0} onClick={preview}>
            Preview {plural(wave.length, "bank")}
          </Button>
        </Group>
      </Stack>
    );
  }

  if (stage === "previewing" || stage === "previewed") {
    // A bank whose conflicts are all chosen is no longer expected to fail.
    const failedPreviews = previews.filter((outcome) => !outcome.applied && !resolved(outcome.bankId));
    const groups = groupPreviews(previews, merge ? facts : undefined);
    return (
      <Stack data-testid="rollout-preview">
        {warningAlert}
        <Text size="sm">
          A dry run of each bank chosen: what applying {template}
          {merge ? " while keeping each bank's own edits" : ""} would change. Nothing has been written yet.
          {stage === "previewed" &&
            groups.length > 1 &&
            ` ${plural(previews.length, "bank")} in ${groups.length} groups: the banks of a group get the same changes.`}
        </Text>
        {stage === "previewing" && <StepProgress done={previews.length} total={wave.length} verb="Previewed" />}
        {groups.map((group, index) => (
          <GroupCard key={group.bankIds[0]} group={group} template={template} index={index + 1} nameOf={nameOf}>
            {group.conflicts && (
              <BankConflicts
                bankId={group.bankIds[0]!}
                bank={read.get(group.bankIds[0]!)}
                conflicts={group.conflicts}
                choices={choices.get(group.bankIds[0]!) ?? {}}
                onChoose={(path, choice) => choose(group.bankIds[0]!, path, choice)}
              />
            )}
          </GroupCard>
        ))}
        {stage === "previewed" && unresolved > 0 && (
          <Alert color="orange" icon={<IconAlertTriangle aria-hidden />} data-testid="rollout-unresolved">
            {plural(unresolved, "bank has", "banks have")} conflicts not all chosen: {unresolved === 1 ? "it is" : "they are"} not applied
            and {unresolved === 1 ? "is" : "are"} reported; the other banks roll out.
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="default" onClick={backToChoice}>
            Change the banks
          </Button>
          <Button disabled={stage !== "previewed"} onClick={() => apply(wave)}>
            Apply to {plural(wave.length, "bank")}
            {failedPreviews.length > 0 ? ` (${failedPreviews.length} may fail)` : ""}
          </Button>
        </Group>
      </Stack>
    );
  }

  const results = wave.flatMap((bankId) => {
    const outcome = outcomes.get(bankId);
    return outcome ? [outcome] : [];
  });
  const applied = results.filter((outcome) => outcome.applied);
  const failed = results.filter((outcome) => !outcome.applied);
  const rest = waiting.filter((bank) => !chosen.has(bank.bank_id));
  return (
    <Stack data-testid="rollout-apply">
      <StepProgress done={doneInRun} total={running.length} verb="Applied" color={failed.length ? "orange" : "blue"} />
      {stage === "done" && (
        <Alert
          color={failed.length === 0 ? "green" : applied.length === 0 ? "red" : "orange"}
          role="status"
          title="Rollout finished"
          data-testid="rollout-summary"
        >
          {applied.length} applied, {failed.length} failed.
          {rest.length > 0 &&
            ` ${plural(rest.length, "bank was", "banks were")} not in this wave and ${rest.length === 1 ? "is" : "are"} still behind.`}
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
        {stage === "done" && rest.length > 0 && (
          <Button variant="light" onClick={() => nextWave(rest)}>
            Next wave: the other {plural(rest.length, "bank")}
          </Button>
        )}
        <Button variant={stage === "done" ? "filled" : "default"} onClick={onClose} disabled={stage !== "done"}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}

/** "Applied 2 of 3 banks" in the page's text size above the bar (text inside a bar is too small to read). */
function StepProgress({ done, total, verb, color }: { done: number; total: number; verb: string; color?: string }) {
  const label = `${verb} ${done} of ${plural(total, "bank")}`;
  return (
    <Stack gap={4}>
      <Text size="sm" aria-hidden data-testid="rollout-progress">
        {label}
      </Text>
      <Progress value={(done / Math.max(total, 1)) * 100} size="md" color={color} aria-label={label} />
    </Stack>
  );
}

/**
 * The choice of a wave's banks: a checkbox each, a filter over names and ids, all or none of the
 * banks the filter shows, and how many are chosen.
 */
function BankChoice({ banks, chosen, onChange }: { banks: RolloutBank[]; chosen: Set<string>; onChange: (next: Set<string>) => void }) {
  const [filter, setFilter] = useState("");
  const headingId = useId();
  const shown = banks.filter((bank) => matchesSearch(filter, bank.name, bank.bank_id));
  const filtering = filter.trim() !== "";
  const setAll = (ids: string[], on: boolean) => {
    const next = new Set(chosen);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    onChange(next);
  };
  const shownIds = shown.map((bank) => bank.bank_id);
  const count = banks.filter((bank) => chosen.has(bank.bank_id)).length;
  return (
    <Stack gap="sm">
      <Text size="sm" id={headingId}>
        Choose the banks to roll out to. Those left out stay behind; the dialog offers them as the next wave once this one is applied.
      </Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SearchInput label="Filter banks" placeholder="Name or id" value={filter} onChange={setFilter} style={{ flex: "1 1 12rem" }} />
        <Group gap="xs" wrap="wrap">
          <Button variant="default" onClick={() => setAll(shownIds, true)} disabled={shown.length === 0}>
            {filtering ? `Select the ${shown.length} shown` : "Select all"}
          </Button>
          <Button variant="default" onClick={() => setAll(shownIds, false)} disabled={shown.length === 0}>
            {filtering ? `Deselect the ${shown.length} shown` : "Select none"}
          </Button>
        </Group>
      </Group>
      <Text size="sm" fw={500} role="status" data-testid="rollout-chosen-count">
        {count} of {banks.length} selected
      </Text>
      <ScrollRegion labelledBy={headingId} maxHeight="min(20rem, 45vh)" testId="rollout-bank-choice">
        <Stack gap={6} p="xs">
          {shown.length === 0 && (
            <Text size="sm" c="dimmed">
              No bank matches “{filter}”.
            </Text>
          )}
          {shown.map((bank) => (
            <Checkbox
              key={bank.bank_id}
              checked={chosen.has(bank.bank_id)}
              onChange={(event) => setAll([bank.bank_id], event.currentTarget.checked)}
              label={bank.name}
              description={bank.name === bank.bank_id ? undefined : bank.bank_id}
              styles={{
                label: { wordBreak: "break-word" },
                description: { fontFamily: "var(--mantine-font-family-monospace)", wordBreak: "break-all" },
              }}
            />
          ))}
        </Stack>
      </ScrollRegion>
    </Stack>
  );
}

/** One group of the preview: its banks (a list to open when several) and, once, what they would get or why they would fail. */
function GroupCard({
  group,
  template,
  index,
  nameOf,
  children,
}: {
  group: PreviewGroup;
  template: string;
  index: number;
  nameOf: (bankId: string) => string;
  /** What the group shows instead of its failure: a merge's conflicts, with their choices. */
  children?: ReactNode;
}) {
  const headingId = useId();
  const heading = groupHeading(group);
  const several = group.bankIds.length > 1;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={headingId} data-testid="rollout-group">
      <Stack gap="sm">
        <Group gap="xs" wrap="wrap">
          <Title order={3} size="h4" id={headingId} style={{ wordBreak: "break-word" }}>
            {heading}
          </Title>
          <EditedHereBadge facts={group.merge} several={several} />
        </Group>
        {several && (
          <details data-testid="rollout-group-banks">
            <summary style={{ cursor: "pointer" }}>
              <Text span size="sm">
                Show the {plural(group.bankIds.length, "bank")}
              </Text>
            </summary>
            <ScrollRegion label={`Banks of group ${index}`} maxHeight="12rem">
              <List size="sm" spacing={2} p="xs" listStyleType="none">
                {group.bankIds.map((bankId) => (
                  <List.Item key={bankId}>
                    <Text span size="sm" style={{ wordBreak: "break-word" }}>
                      {nameOf(bankId)}
                    </Text>
                    {nameOf(bankId) !== bankId && (
                      <Text span size="sm" c="dimmed" ff="monospace" style={{ wordBreak: "break-all" }}>
                        {" "}
                        ({bankId})
                      </Text>
                    )}
                  </List.Item>
                ))}
              </List>
            </ScrollRegion>
          </details>
        )}
        {children ??
          (group.preview ? (
            <>
              {group.merge && <KeptByMerge kept={group.merge.kept} />}
              <Text size="sm" c="dimmed">
                Applying {template} {several ? "updates each of these banks alike" : "updates this bank"}. Nothing has been written yet.
              </Text>
              <ImportChangesBody
                result={group.preview.result}
                changes={group.preview.changes}
                dryRun
                label={several ? `group ${index}` : group.bankIds[0]!}
              />
            </>
          ) : (
            <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title="Would fail">
              <Text size="sm" style={{ wordBreak: "break-word" }}>
                {group.reason}
              </Text>
            </Alert>
          ))}
      </Stack>
    </Card>
  );
}
