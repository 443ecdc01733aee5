"use client";
import { Card, Code, Group, Radio, SimpleGrid, Stack, Text } from "@mantine/core";
import type { MergeConflict, MergeResolutions } from "@/lib/contracts/templates/merge";
import { formatJson } from "./json-text";

type Side = "base" | "local" | "upstream";

const SIDES: { side: Side; label: string }[] = [
  { side: "base", label: "Base (as installed)" },
  { side: "local", label: "Mine" },
  { side: "upstream", label: "Upstream" },
];

/** What a side without the path means: never there (base), or deleted on that side. */
const ABSENT: Record<Side, string> = {
  base: "not there (added on both sides)",
  local: "deleted here",
  upstream: "deleted upstream",
};

/** One side's value at the conflicting path: its JSON, or that the path is not there. */
function SideValue({ conflict, side, label }: { conflict: MergeConflict; side: Side; label: string }) {
  const missing = conflict.missing.includes(side);
  return (
    <Stack gap={4} data-testid={`conflict-${side}`}>
      <Text size="xs" fw={600} c="dimmed">
        {label}
      </Text>
      {missing ? (
        <Text size="sm" fs="italic" c="dimmed">
          {ABSENT[side]}
        </Text>
      ) : (
        <Code block style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
          {formatJson(conflict[side])}
        </Code>
      )}
    </Stack>
  );
}

/**
 * The paths an update with merge=true could not decide: each with base, mine and upstream side
 * by side (stacked on a narrow screen), and a choice of mine or upstream.
 */
export function MergeConflicts({
  conflicts,
  picks,
  onPick,
}: {
  conflicts: MergeConflict[];
  picks: MergeResolutions;
  onPick: (path: string, side: "local" | "upstream") => void;
}) {
  return (
    <Stack gap="md">
      {conflicts.map((conflict) => (
        <Card key={conflict.path} withBorder padding="sm" data-testid="merge-conflict" data-path={conflict.path}>
          <Stack gap="sm">
            <Text size="sm" fw={600}>
              <Code>{conflict.path}</Code>
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              {SIDES.map(({ side, label }) => (
                <SideValue key={side} conflict={conflict} side={side} label={label} />
              ))}
            </SimpleGrid>
            <Radio.Group
              label={`Keep for ${conflict.path}`}
              value={picks[conflict.path]?.take ?? null}
              onChange={(value) => onPick(conflict.path, value as "local" | "upstream")}
            >
              <Group gap="lg" mt={4}>
                <Radio value="local" label="Mine" />
                <Radio value="upstream" label="Upstream" />
              </Group>
            </Radio.Group>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
