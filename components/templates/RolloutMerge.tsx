"use client";
import { Badge, Code, Group, List, Stack, Text } from "@mantine/core";
import type { z } from "zod";
import type { BankDetail } from "@/lib/contracts/banks/schemas";
import type { MergeConflict } from "@/lib/contracts/problem-schema";
import { plural } from "@/lib/shared/plural";
import { MergeConflicts, type SideNames } from "./MergeConflicts";
import { conflictTitle, type MergeChoice } from "./merge-choices";
import { type KeptEdits, keptCount, type MergeFacts } from "./rollout-groups";

// The parts of a rollout preview that a merge adds (CONTRACT §21, issue 36): which banks were edited
// here, what the merge keeps of their edits, and each bank's conflicts with a choice per path.

/** "Edited here": the bank's content differs from what its last apply wrote. */
export function EditedHereBadge({ facts, several }: { facts: MergeFacts | null; several: boolean }) {
  if (!facts?.editedHere) return null;
  return (
    <Badge color="grape" variant="light" data-testid="rollout-edited-here">
      {several ? "Each edited here" : "Edited here"}
    </Badge>
  );
}

/** What the merge keeps of the bank's own edits, where an apply without merge would overwrite them. */
export function KeptByMerge({ kept }: { kept: KeptEdits | null }) {
  if (kept === null) return null;
  if (keptCount(kept) === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="rollout-kept">
        The template touches none of this bank's own edits: the merge writes what an apply without it would.
      </Text>
    );
  }
  const items = [
    ...kept.config.map((field) => ({ key: `config:${field}`, what: "Config field", name: field })),
    ...kept.mentalModels.map((id) => ({ key: `mm:${id}`, what: "Mental model", name: id })),
    ...kept.directives.map((name) => ({ key: `dir:${name}`, what: "Directive", name })),
  ];
  return (
    <Stack gap={4} data-testid="rollout-kept">
      <Text size="sm" fw={500}>
        {items.length === 1
          ? "The merge keeps the bank's own edit (an apply without merge would overwrite it):"
          : `The merge keeps the bank's ${items.length} own edits (an apply without merge would overwrite them):`}
      </Text>
      <List size="sm" spacing={2}>
        {items.map((item) => (
          <List.Item key={item.key}>
            {item.what}{" "}
            <Code fz="sm" style={{ wordBreak: "break-word" }}>
              {item.name}
            </Code>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

const BANK_SIDES: SideNames = {
  base: "As the last apply wrote it",
  theirs: "The template's",
  theirsOwn: "the template's",
  theirsDeleted: "removed by the template",
  mine: "This bank's",
  mineOwn: "this bank's",
};

/** The bank's content as a manifest, which names the entries that conflict paths point into. */
const asManifest = (bank: z.output<typeof BankDetail> | undefined) => ({
  manifest: { mental_models: bank?.mental_models ?? [], directives: bank?.directives ?? [] },
});

/**
 * One bank's conflicts: both the bank and the template changed these paths since its last apply. Each
 * with its three sides and a choice (keep the bank's, take the template's, or a value of one's own),
 * sent with that bank's apply; a bank left with a path unchosen is not applied and is reported.
 */
export function BankConflicts({
  bankId,
  bank,
  conflicts,
  choices,
  onChoose,
}: {
  bankId: string;
  /** The bank as read for the preview (names the entries its conflicts are in); undefined when unread. */
  bank: z.output<typeof BankDetail> | undefined;
  conflicts: MergeConflict[];
  choices: Readonly<Record<string, MergeChoice>>;
  onChoose: (path: string, choice: MergeChoice) => void;
}) {
  const chosen = conflicts.filter((conflict) => choices[conflict.path]).length;
  const local = asManifest(bank);
  const none = { manifest: {} };
  return (
    <Stack gap="sm" data-testid="rollout-conflicts">
      <Text size="sm">
        This bank and the template both changed {conflicts.length === 1 ? "this path" : "these paths"} since its last apply. Choose for
        each: the choices are sent with this bank's apply. Until every one is chosen the bank is not applied (it is reported), and the other
        banks roll out.
      </Text>
      <Group gap="xs">
        <Badge color={chosen === conflicts.length ? "green" : "orange"} variant="light" data-testid="rollout-conflicts-chosen">
          {chosen} of {plural(conflicts.length, "conflict")} chosen
        </Badge>
      </Group>
      <MergeConflicts
        conflicts={conflicts}
        choices={choices}
        onChoose={onChoose}
        local={local}
        upstream={none}
        errors={[]}
        sides={BANK_SIDES}
        titleOf={(conflict) => `${bankId}: ${conflictTitle(conflict, local, none)}`}
      />
    </Stack>
  );
}
