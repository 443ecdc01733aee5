"use client";
import { Alert, Button, Group, List, Stack, Text } from "@mantine/core";
import { IconAlertTriangle, IconGitMerge } from "@tabler/icons-react";
import { type ReactNode, useMemo, useState } from "react";
import { MergeConflicts, type SideNames } from "@/components/templates/MergeConflicts";
import { type MergeChoice, resolutionsOf } from "@/components/templates/merge-choices";
import { type MergeConflict, mergeTemplate } from "@/lib/contracts/templates/merge";
import { sameJson } from "@/lib/shared/same-json";
import { type ChangeAuthor, changedBySentence } from "./edit-conflict";
import type { FieldConflict } from "./useFieldConflict";

const CONFLICT_SIDES: SideNames = {
  base: "What you started from",
  theirs: "Theirs",
  theirsOwn: "theirs",
  theirsDeleted: "deleted by them",
  mine: "Mine",
  mineOwn: "mine",
};

interface EditConflictProps<T extends object> {
  /** What was changed, in words: "policy", "template". */
  what: string;
  /** The changes made meanwhile, newest first; null while unknown or when they cannot be read. */
  authors: readonly ChangeAuthor[] | null;
  /** The version the form started from, what the person made of it, and the version there is now (null: deleted meanwhile). */
  base: T;
  mine: T;
  theirs: T | null;
  /** What they changed (from `base` to `theirs`), shown as a diff. */
  changes: ReactNode;
  /** A conflicting path in words (the path itself when not given). */
  titleOf?: (conflict: MergeConflict) => string;
  /** Merge chosen: the form holds `merged` (mine onto theirs) and theirs' version, to be saved. */
  onMerge: (merged: T) => void;
  /** Overwrite chosen: mine is sent again, against the version there is now; not offered when undefined. */
  onOverwrite?: () => void;
  /** Discard chosen: the form holds theirs (or nothing, deleted). */
  onDiscard: () => void;
  busy?: boolean;
}

/**
 * A save that found the resource changed by someone else since the form read it (nothing was
 * written, and what the person typed stays in the form): who changed it and what, and three
 * ways on: merge my change onto theirs (per path: where only one side changed, that side;
 * where both did differently, a choice, as in an update's review), overwrite theirs with mine,
 * or discard mine and take theirs.
 */
export function EditConflict<T extends object>({
  what,
  authors,
  base,
  mine,
  theirs,
  changes,
  titleOf = (conflict) => conflict.path,
  onMerge,
  onOverwrite,
  onDiscard,
  busy = false,
}: EditConflictProps<T>) {
  const merge = useMemo(() => (theirs === null ? null : mergeTemplate(base, mine, theirs)), [base, mine, theirs]);
  const [resolving, setResolving] = useState(false);
  const [choices, setChoices] = useState<Record<string, MergeChoice>>({});
  const resolutions = useMemo(() => (merge ? resolutionsOf(merge.conflicts, choices) : null), [merge, choices]);

  const startMerge = () => {
    if (!merge || theirs === null) return;
    if (merge.conflicts.length === 0) onMerge(merge.merged);
    else setResolving(true);
  };
  const useResolved = () => {
    if (resolutions && theirs !== null) onMerge(mergeTemplate(base, mine, theirs, resolutions).merged);
  };
  const deleted = theirs === null;

  return (
    <Alert
      color="orange"
      role="alert"
      icon={<IconAlertTriangle aria-hidden />}
      title={`Someone else has ${deleted ? "deleted" : "updated"} this ${what}`}
      data-testid="edit-conflict"
    >
      <Stack gap="sm">
        <Text size="sm">
          It changed after you opened it, so your changes were not saved; they are still in the form.{" "}
          <span data-testid="edit-conflict-author">
            {authors === null ? "Looking up who changed it…" : changedBySentence(authors, deleted)}
          </span>
        </Text>
        {!deleted && (
          <Stack gap={4} data-testid="edit-conflict-changes">
            <Text size="sm" fw={500}>
              What they changed
            </Text>
            {changes}
          </Stack>
        )}
        {resolving && merge ? (
          <Stack gap="sm" data-testid="edit-conflict-merge">
            <Text size="sm">
              You and they changed {merge.conflicts.length === 1 ? "one part" : `${merge.conflicts.length} parts`} differently; the rest
              merges on its own. For each part keep yours, theirs, or a value you edit.
            </Text>
            <MergeConflicts
              conflicts={merge.conflicts}
              choices={choices}
              onChoose={(path, choice) => setChoices((current) => ({ ...current, [path]: choice }))}
              local={mine}
              upstream={theirs ?? {}}
              errors={[]}
              sides={CONFLICT_SIDES}
              titleOf={titleOf}
            />
            <Group gap="sm">
              <Button leftSection={<IconGitMerge size={16} aria-hidden />} onClick={useResolved} disabled={!resolutions}>
                Use the merge
              </Button>
              <Button variant="default" onClick={() => setResolving(false)}>
                Back
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group gap="sm">
            {!deleted && (
              <Button leftSection={<IconGitMerge size={16} aria-hidden />} onClick={startMerge} disabled={busy}>
                Merge my changes onto theirs
              </Button>
            )}
            {onOverwrite && (
              <Button color="orange" variant="light" onClick={onOverwrite} loading={busy}>
                {deleted ? "Save mine anyway" : "Overwrite with mine"}
              </Button>
            )}
            <Button variant="default" onClick={onDiscard} disabled={busy}>
              Discard mine
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

const shownValue = (value: unknown) => (value === null || value === undefined || value === "" ? "none" : String(value));

/** What someone changed of a form's fields: each field that differs, from what the form showed to what it is now. */
function FieldChanges<F extends object>({ labels, before, after }: { labels: Record<keyof F, string>; before: F; after: F }) {
  const keys = (Object.keys(labels) as (keyof F)[]).filter((key) => !sameJson(before[key], after[key]));
  if (keys.length === 0) return <Text size="sm">Nothing this form shows; something else about it changed.</Text>;
  return (
    <List size="sm">
      {keys.map((key) => (
        <List.Item key={String(key)}>
          {labels[key]}: {shownValue(before[key])} → <strong>{shownValue(after[key])}</strong>
        </List.Item>
      ))}
    </List>
  );
}

/**
 * The conflict of a dialog that edits fields of one resource (useFieldConflict): EditConflict with
 * the fields as the form and the resource hold them, merge and discard loading theirs into the
 * form, and overwrite sending the form against their version.
 */
export function FieldsConflict<R extends object, F extends object>({
  what,
  edit,
  mine,
  editedOf,
  labels,
  load,
  submit,
  busy,
}: {
  what: string;
  edit: { base: F; conflict: FieldConflict<R> | null; standOnTheirs: () => void };
  mine: F;
  editedOf: (resource: R) => F;
  labels: Record<keyof F, string>;
  /** Puts values in the form. */
  load: (values: F) => void;
  /** Sends the form; `overwrite` against their version. */
  submit: (overwrite: boolean) => unknown;
  busy: boolean;
}) {
  const conflict = edit.conflict;
  if (!conflict) return null;
  const theirs = conflict.theirs && editedOf(conflict.theirs);
  return (
    <EditConflict
      what={what}
      authors={conflict.authors}
      base={edit.base}
      mine={mine}
      theirs={theirs}
      changes={theirs && <FieldChanges labels={labels} before={edit.base} after={theirs} />}
      titleOf={(c) => labels[c.path as keyof F] ?? c.path}
      onMerge={(merged) => {
        load(merged);
        edit.standOnTheirs();
      }}
      onOverwrite={theirs ? () => void submit(true) : undefined}
      onDiscard={() => {
        if (theirs) load(theirs);
        edit.standOnTheirs();
      }}
      busy={busy}
    />
  );
}
