"use client";
import { Badge, Group, Stack, Text } from "@mantine/core";
import { ResourceTable } from "@/components/console/ResourceTable";
import { type RowAction, RowActions } from "@/components/console/RowActions";
import { Table } from "@/components/console/Table";
import { formatTimestamp } from "@/lib/client/format";
import type { VersionSummaryData } from "@/lib/client/hooks/versions";
import { plural } from "@/lib/shared/plural";
import { ActionBadge } from "./ActionBadge";

const COLUMNS = [
  { label: "Version" },
  { label: "Change", visibleFrom: "sm" as const },
  { label: "By", visibleFrom: "md" as const },
  { label: "When", visibleFrom: "sm" as const },
  { label: "Source revision", visibleFrom: "md" as const },
];

interface Props {
  /** Newest first; the first is the template's current content. */
  versions: VersionSummaryData[];
  onView: (v: VersionSummaryData) => void;
  onCompare: (v: VersionSummaryData) => void;
  onRollback: (v: VersionSummaryData) => void;
}

/** One row per recorded version, newest first, with what can be done with it. */
export function VersionsTable({ versions, onView, onCompare, onRollback }: Props) {
  const caption = `${plural(versions.length, "version")}, newest first; the newest is the current content`;
  return (
    // No minimum width: at 390 px the table fits the card (the actions wrap) rather than scrolling sideways.
    <ResourceTable columns={COLUMNS} actions caption={caption} testId="versions-table" minWidth={0} verticalSpacing="sm">
      {versions.map((v, i) => {
        const isCurrent = i === 0;
        const actions: RowAction[] = [{ label: "View", ariaLabel: `View version ${v.version}`, onClick: () => onView(v) }];
        if (!isCurrent) {
          actions.push(
            {
              label: "Compare",
              ariaLabel: `Compare version ${v.version} with the current one`,
              onClick: () => onCompare(v),
            },
            {
              label: "Roll back",
              ariaLabel: `Roll back to version ${v.version}`,
              onClick: () => onRollback(v),
              danger: true,
            },
          );
        }
        return (
          <Table.Tr key={v.version} data-testid={`version-row-${v.version}`}>
            <Table.Th scope="row" fw="normal">
              <Group gap={6}>
                <Text size="sm" fw={600} style={{ whiteSpace: "nowrap" }}>
                  Version {v.version}
                </Text>
                {isCurrent && (
                  <Badge color="green" variant="filled" size="sm">
                    Current
                  </Badge>
                )}
              </Group>
              {/* Narrow screens leave out the Change and When columns (room for the actions); the row still says them. */}
              <Stack gap={4} mt={4} align="flex-start" hiddenFrom="sm">
                <ActionBadge version={v} />
                <Text size="xs" c="dimmed">
                  {formatTimestamp(v.created_at)}
                </Text>
              </Stack>
            </Table.Th>
            <Table.Td visibleFrom="sm">
              <ActionBadge version={v} />
            </Table.Td>
            <Table.Td visibleFrom="md">
              <Text size="sm" ff="monospace">
                {v.actor}
              </Text>
            </Table.Td>
            <Table.Td visibleFrom="sm">
              <Text size="sm" style={{ whiteSpace: "nowrap" }}>
                {formatTimestamp(v.created_at)}
              </Text>
            </Table.Td>
            <Table.Td visibleFrom="md">
              <Group gap={6}>
                {v.source_revision ? (
                  <Text size="sm" ff="monospace" title={v.source_revision}>
                    {v.source_revision.slice(0, 8)}
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    none
                  </Text>
                )}
                {v.locally_modified && (
                  <Badge color="yellow" variant="light" size="sm">
                    Edited locally
                  </Badge>
                )}
              </Group>
            </Table.Td>
            {/* Up to three buttons, wider side by side than a phone leaves the table: they may wrap. */}
            <RowActions name={`version ${v.version}`} actions={actions} wrap />
          </Table.Tr>
        );
      })}
    </ResourceTable>
  );
}
