"use client";
import { Alert, Button, Group, List, Progress, Stack, Text } from "@mantine/core";
import { IconDownload, IconRefresh } from "@tabler/icons-react";
import { useState } from "react";
import { ConfirmModal } from "@/components/console/ConfirmModal";
import { SectionCard } from "@/components/console/SectionCard";
import { formatTimestamp } from "@/lib/client/format";
import {
  type CheckUpdatesResult,
  hasUpdate,
  type PreviewOutcome,
  type TemplateData,
  type UpdateOutcome,
  useCheckAllForUpdates,
  usePreviewMany,
  useUpdateMany,
} from "@/lib/client/hooks/templates";
import { describeError } from "@/lib/client/problem";
import type { ScopeKind } from "@/lib/contracts/scope";
import { plural } from "@/lib/shared/plural";
import { BulkUpdateConfirm } from "./BulkUpdateConfirm";

/**
 * What the panel is doing: nothing, a check (one request), previews of what "Update all" would
 * change (one per template) and the confirmation listing them, or updates (one per template).
 */
type Activity =
  | { phase: "idle" }
  | { phase: "checking"; then: "report" | "update" }
  | { phase: "previewing"; done: number; total: number }
  | { phase: "confirming"; previews: PreviewOutcome[]; failedChecks: UpdateOutcome[]; upToDate: number }
  | { phase: "updating"; done: number; total: number }
  | { phase: "checked"; results: CheckUpdatesResult[] }
  | { phase: "updated"; outcomes: UpdateOutcome[]; upToDate: number }
  | { phase: "error"; message: string };

interface Props {
  scope: ScopeKind;
  /** The scope's templates, with their stored update status. */
  templates: TemplateData[];
  /** Why the last check of each template failed (empty when none did); shown in the table. */
  onCheckFailures: (failures: Map<string, string>) => void;
}

/**
 * The scope's update status at a glance, "Check all for updates" (one bulk request that
 * stores what it finds) and "Update all": a fresh check, the update preview of every template
 * with an update (a few at a time, with progress), a confirmation listing what each would
 * change, then the confirmed templates updated one request at a time so progress shows, then a
 * summary that names what was updated, what was skipped for local edits (with the offer to
 * replace them) and what failed, and why. Cancel at the confirmation updates nothing. Personal
 * and server templates get the same confirmation; programs keep POST …/update-all as it is.
 */
export function TemplateUpdatesPanel({ scope, templates, onCheckFailures }: Props) {
  const checkAll = useCheckAllForUpdates(scope);
  const updateMany = useUpdateMany(scope);
  const previewMany = usePreviewMany(scope);
  const [activity, setActivity] = useState<Activity>({ phase: "idle" });
  const [forcing, setForcing] = useState<string[] | null>(null);

  const fromSources = templates.filter((t) => t.source_name !== null);
  const waiting = fromSources.filter(hasUpdate);
  const lastChecked = fromSources.reduce<string | null>(
    (latest, t) => (t.update_checked_at && (!latest || t.update_checked_at > latest) ? t.update_checked_at : latest),
    null,
  );
  const busy = activity.phase === "checking" || activity.phase === "previewing" || activity.phase === "updating";

  const check = async (then: "report" | "update") => {
    setActivity({ phase: "checking", then });
    try {
      const { results } = await checkAll.mutateAsync({});
      onCheckFailures(new Map(results.flatMap((r) => (r.problem ? [[r.id, r.problem.detail] as const] : []))));
      return results;
    } catch (error) {
      setActivity({ phase: "error", message: describeError(error) });
      return null;
    }
  };

  /** Updates `ids`, counting progress; `earlier` are outcomes already known (failed checks, a first pass). */
  const update = async (ids: string[], force: boolean, earlier: UpdateOutcome[], upToDate: number) => {
    const outcomes = [...earlier];
    setActivity({ phase: "updating", done: 0, total: ids.length });
    await updateMany(ids, force, (outcome) => {
      outcomes.push(outcome);
      setActivity({ phase: "updating", done: outcomes.length - earlier.length, total: ids.length });
    });
    setActivity({ phase: "updated", outcomes, upToDate });
  };

  const runCheck = async () => {
    const results = await check("report");
    if (results) setActivity({ phase: "checked", results });
  };

  const runUpdateAll = async () => {
    const results = await check("update");
    if (!results) return;
    const failedChecks: UpdateOutcome[] = results.flatMap((r) =>
      r.problem ? [{ id: r.id, outcome: "failed" as const, detail: `Could not check: ${r.problem.detail}` }] : [],
    );
    const withUpdates = results.filter((r) => !r.problem && r.has_update).map((r) => r.id);
    const upToDate = results.length - withUpdates.length - failedChecks.length;
    if (withUpdates.length === 0) {
      setActivity({ phase: "updated", outcomes: failedChecks, upToDate });
      return;
    }
    let done = 0;
    setActivity({ phase: "previewing", done, total: withUpdates.length });
    const previews = await previewMany(withUpdates, () => {
      done += 1;
      setActivity({ phase: "previewing", done, total: withUpdates.length });
    });
    setActivity({ phase: "confirming", previews, failedChecks, upToDate });
  };

  /**
   * Updates what the confirmation listed: a template with local edits (as its preview found it)
   * is skipped without asking, one edited since comes back as a 409, skipped too; one whose
   * preview failed is reported as failed, and one the source no longer has an update for as up to date.
   */
  const confirmUpdates = async (ids: string[]) => {
    if (activity.phase !== "confirming") return;
    const { previews, failedChecks, upToDate } = activity;
    const earlier: UpdateOutcome[] = [...failedChecks];
    for (const o of previews) {
      if (o.preview === null) earlier.push({ id: o.id, outcome: "failed", detail: `Could not preview: ${o.detail}` });
      else if (o.preview.has_update && o.preview.locally_modified)
        earlier.push({ id: o.id, outcome: "skipped", detail: "has local edits; updating would replace them." });
    }
    const settled = previews.filter((o) => o.preview && !o.preview.has_update).length;
    await update(ids, false, earlier, upToDate + settled);
  };

  /** Updates the skipped templates anyway, replacing their local edits; keeps the rest of the summary. */
  const replaceLocalEdits = async (ids: string[]) => {
    if (activity.phase !== "updated") return;
    const kept = activity.outcomes.filter((o) => !ids.includes(o.id));
    await update(ids, true, kept, activity.upToDate);
  };

  return (
    <SectionCard title="Updates">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Text size="sm" data-testid="updates-summary">
            {fromSources.length === 0
              ? "No template here came from a source, so there is nothing to update."
              : lastChecked === null
                ? `${plural(fromSources.length, "template")} from sources, not checked yet.`
                : waiting.length > 0
                  ? `${plural(waiting.length, "template has an update", "templates have updates")} waiting. Last checked ${formatTimestamp(lastChecked)}.`
                  : `Every checked template is up to date. Last checked ${formatTimestamp(lastChecked)}.`}
          </Text>
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={runCheck}
              loading={activity.phase === "checking" && activity.then === "report"}
              disabled={fromSources.length === 0 || busy}
            >
              Check all for updates
            </Button>
            <Button
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={runUpdateAll}
              loading={
                activity.phase === "previewing" ||
                activity.phase === "updating" ||
                (activity.phase === "checking" && activity.then === "update")
              }
              disabled={fromSources.length === 0 || busy}
            >
              Update all
            </Button>
          </Group>
        </Group>
        <ActivityReport activity={activity} onReplaceLocalEdits={setForcing} onDismiss={() => setActivity({ phase: "idle" })} />
      </Stack>
      <BulkUpdateConfirm
        scope={scope}
        opened={activity.phase === "confirming"}
        previews={activity.phase === "confirming" ? activity.previews : []}
        onCancel={() => setActivity({ phase: "idle" })}
        onConfirm={(ids) => void confirmUpdates(ids)}
      />
      <ConfirmModal
        opened={forcing !== null}
        onClose={() => setForcing(null)}
        title="Replace local edits?"
        confirmLabel="Replace local edits and update"
        onConfirm={() => replaceLocalEdits(forcing ?? [])}
      >
        {forcing?.join(", ")} {forcing?.length === 1 ? "was" : "were"} edited here. Updating replaces those edits with the source&apos;s
        version. The edited content stays in each template&apos;s versions, so you can roll back to it.
      </ConfirmModal>
    </SectionCard>
  );
}

function ActivityReport({
  activity,
  onReplaceLocalEdits,
  onDismiss,
}: {
  activity: Activity;
  onReplaceLocalEdits: (ids: string[]) => void;
  onDismiss: () => void;
}) {
  switch (activity.phase) {
    case "idle":
    case "confirming":
      return null;
    case "checking":
      return <CountProgress name="Update checks" label="Checking the sources for updates…" />;
    case "previewing":
      return (
        <CountProgress
          name="Update previews"
          label={`Preparing the list of changes: ${activity.done} of ${activity.total}`}
          done={activity.done}
          total={activity.total}
        />
      );
    case "updating":
      return (
        <CountProgress
          name="Updates"
          label={`Updating templates: ${activity.done} of ${activity.total}`}
          done={activity.done}
          total={activity.total}
        />
      );
    case "error":
      return (
        <Alert color="red" title="Could not check for updates" role="alert" withCloseButton onClose={onDismiss} closeButtonLabel="Dismiss">
          {activity.message}
        </Alert>
      );
    case "checked": {
      const failed = activity.results.filter((r) => r.problem);
      const updates = activity.results.filter((r) => !r.problem && r.has_update).length;
      return (
        <Alert
          color={failed.length ? "yellow" : "green"}
          role="status"
          data-testid="check-report"
          withCloseButton
          onClose={onDismiss}
          closeButtonLabel="Dismiss"
          title={`Checked ${plural(activity.results.length, "template")}`}
        >
          {plural(updates, "has an update", "have updates")}, {activity.results.length - updates - failed.length} up to date
          {failed.length > 0 && `, ${failed.length} could not be checked (see the table)`}.
        </Alert>
      );
    }
    case "updated": {
      const by = (kind: UpdateOutcome["outcome"]) => activity.outcomes.filter((o) => o.outcome === kind);
      const [updated, skipped, failed] = [by("updated"), by("skipped"), by("failed")];
      const parts = [`${updated.length} updated`, `${activity.upToDate} already up to date`];
      if (skipped.length) parts.push(`${skipped.length} skipped for local edits`);
      if (failed.length) parts.push(`${failed.length} failed`);
      return (
        <Alert
          color={failed.length ? "red" : skipped.length ? "yellow" : "green"}
          role="status"
          data-testid="update-all-report"
          withCloseButton
          onClose={onDismiss}
          closeButtonLabel="Dismiss"
          title={`Update all: ${parts.join(", ")}`}
        >
          <Stack gap="xs">
            {updated.length > 0 && <OutcomeList title="Updated" outcomes={updated} />}
            {skipped.length > 0 && (
              <>
                <OutcomeList title="Skipped: edited here" outcomes={skipped} />
                <Group>
                  <Button size="xs" color="red" variant="light" onClick={() => onReplaceLocalEdits(skipped.map((o) => o.id))}>
                    Replace local edits in {plural(skipped.length, "template")}
                  </Button>
                </Group>
              </>
            )}
            {failed.length > 0 && <OutcomeList title="Failed" outcomes={failed} />}
            {updated.length + skipped.length + failed.length === 0 && <Text size="sm">Nothing to update.</Text>}
          </Stack>
        </Alert>
      );
    }
  }
}

function OutcomeList({ title, outcomes }: { title: string; outcomes: UpdateOutcome[] }) {
  return (
    <div>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      <List size="sm" spacing={2}>
        {outcomes.map((o) => (
          <List.Item key={o.id}>
            <code>{o.id}</code>
            {o.outcome === "updated" ? (
              <>
                {" "}
                to revision <code>{o.revision.slice(0, 8)}</code>
              </>
            ) : (
              `: ${o.detail}`
            )}
          </List.Item>
        ))}
      </List>
    </div>
  );
}

/** A progress bar counting templates (Mantine words values as percentages); without a total it only moves. */
function CountProgress({ name, label, done, total }: { name: string; label: string; done?: number; total?: number }) {
  const counted = done !== undefined && total !== undefined;
  return (
    <Stack gap={4} data-testid="update-progress">
      <Progress.Root size="lg">
        <Progress.Section
          value={counted ? (total ? (done / total) * 100 : 100) : 100}
          withAria={false}
          role="progressbar"
          aria-label={name}
          aria-valuemin={counted ? 0 : undefined}
          aria-valuemax={counted ? total : undefined}
          aria-valuenow={counted ? done : undefined}
          aria-valuetext={counted ? `${done} of ${total}` : undefined}
          animated
          striped={!counted}
        />
      </Progress.Root>
      <Text size="sm" c="dimmed" role="status" aria-live="polite">
        {label}
      </Text>
    </Stack>
  );
}
