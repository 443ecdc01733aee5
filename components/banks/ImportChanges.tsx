"use client";
import { Badge, Code, Group, List, Stack, Text } from "@mantine/core";
import { Suspense, useState } from "react";
import { LoadingState } from "@/components/console/states";
import { formatJson } from "@/components/templates/json-text";
import { LazyManifestDiff } from "@/components/templates/LazyManifestDiff";
import type { ImportChanges } from "@/lib/contracts/banks/schemas";

/**
 * A config value: text quoted (so spaces and empty text show), a number or flag as JSON on the
 * line, an object or list as indented JSON in a block of its own (one long line read badly).
 */
function ConfigValue({ value }: { value: unknown }) {
  if (value === null || value === undefined)
    return (
      <Text span size="sm">
        unset
      </Text>
    );
  if (typeof value === "object") {
    return (
      <Code block data-testid="config-value" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
        {JSON.stringify(value, null, 2)}
      </Code>
    );
  }
  return (
    <Text span size="sm" style={{ wordBreak: "break-word" }}>
      {JSON.stringify(value)}
    </Text>
  );
}

/**
 * Config fields whose value changes, as `field: before → after`; or, for a Hindsight bank whose
 * config Hindsight would not show (`config_unreadable`, CONTRACT §19), that what they replace is unknown.
 */
export function ConfigChanges({ changes, dryRun }: { changes: ImportChanges; dryRun: boolean }) {
  if (changes.config_unreadable) {
    return (
      <Text size="sm" data-testid="config-changes">
        Hindsight would not show this bank&apos;s config (its bank-config API is turned off), so what the template&apos;s config fields
        {dryRun ? " replace" : " replaced"} is unknown: none is listed.
      </Text>
    );
  }
  if (changes.config.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="config-changes">
        No config value {dryRun ? "changes" : "changed"}.
      </Text>
    );
  }
  return (
    <List size="sm" spacing={2} aria-label="Config changes" data-testid="config-changes">
      {changes.config.map(({ field, before, after }) => (
        <List.Item key={field}>
          <Group gap={6} align="flex-start" wrap="wrap">
            {/* The spaces between the parts: the flex gap shows them, the text needs them too. */}
            <Text span ff="monospace" size="sm">
              {field}:
            </Text>{" "}
            <ConfigValue value={before} />{" "}
            <Text span size="sm">
              →
            </Text>{" "}
            <ConfigValue value={after} />
          </Group>
        </List.Item>
      ))}
    </List>
  );
}

interface EntryChange {
  key: string;
  change: "create" | "update";
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
}

/** One created or updated entry; opening it shows the entry before and after as a JSON diff. */
function EntryChangeItem({ kind, entry }: { kind: string; entry: EntryChange }) {
  const [opened, setOpened] = useState(false);
  const created = entry.change === "create";
  return (
    <details onToggle={(event) => setOpened(event.currentTarget.open)} data-testid="entry-change">
      <summary style={{ cursor: "pointer" }}>
        <Group component="span" gap="xs" display="inline-flex" wrap="wrap">
          <Badge size="sm" variant="light" color={created ? "green" : "blue"}>
            {created ? "created" : "updated"}
          </Badge>
          <Text span size="sm">
            {kind}{" "}
            <Text span ff="monospace" size="sm" style={{ wordBreak: "break-word" }}>
              {entry.key}
            </Text>
          </Text>
        </Group>
      </summary>
      {opened && (
        <Suspense fallback={<LoadingState label="Loading the diff…" />}>
          <Stack mt="xs">
            <LazyManifestDiff
              before={entry.before === null ? "" : formatJson(entry.before)}
              after={formatJson(entry.after)}
              beforeLabel={created ? "nothing (new)" : "before"}
              afterLabel="after"
            />
          </Stack>
        </Suspense>
      )}
    </details>
  );
}

/**
 * The mental models and directives an import creates or changes, each with its before and after;
 * a region named for `of` (the bank or banks), so a rollout's previews of several groups do not share one name.
 */
export function EntryChanges({ changes, dryRun, of }: { changes: ImportChanges; dryRun: boolean; of: string }) {
  const entries = [
    ...changes.mental_models.map((c) => ({ kind: "Mental model", entry: { ...c, key: c.id } })),
    ...changes.directives.map((c) => ({ kind: "Directive", entry: { ...c, key: c.name } })),
  ];
  return (
    <Stack gap={4} component="section" aria-label={`Changed entries of ${of}`}>
      <Text size="sm" fw={600}>
        Content {dryRun ? "that changes" : "that changed"}
      </Text>
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          No mental model or directive {dryRun ? "changes" : "changed"}.
        </Text>
      ) : (
        entries.map(({ kind, entry }) => <EntryChangeItem key={`${kind}:${entry.key}`} kind={kind} entry={entry} />)
      )}
    </Stack>
  );
}
