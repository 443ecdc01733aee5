"use client";
import { Anchor, Badge, Text } from "@mantine/core";
import { Table } from "@/components/console/Table";
import { IconTrash } from "@tabler/icons-react";
import type { z } from "zod";
import { ResourceTable, RowActions } from "@/components/console/ResourceTable";
import { formatTimestamp } from "@/lib/client/format";
import type { Source } from "@/lib/sources/schemas";

type SourceRow = z.output<typeof Source>;

/** The sources of one scope, each with a Remove button. */
export function SourcesTable({ sources, onRemove, caption }: { sources: SourceRow[]; onRemove: (s: SourceRow) => void; caption: string }) {
  return (
    <ResourceTable
      minWidth={340}
      striped
      highlightOnHover
      verticalSpacing="sm"
      testId="sources-table"
      caption={caption}
      columns={[{ label: "Name" }, { label: "URL" }, { label: "Token", visibleFrom: "sm" }, { label: "Added", visibleFrom: "sm" }]}
      actions
    >
      {sources.map((source) => (
        <Table.Tr key={source.name}>
          <Table.Th scope="row">
            <Text fw={600} size="sm">
              {source.name}
            </Text>
          </Table.Th>
          <Table.Td>
            <Anchor href={source.url} target="_blank" rel="noreferrer noopener" size="sm" style={{ wordBreak: "break-all" }}>
              {source.url}
            </Anchor>
          </Table.Td>
          <Table.Td visibleFrom="sm">
            {source.has_auth ? <Badge variant="light">Stored</Badge> : <Badge variant="default">None</Badge>}
          </Table.Td>
          <Table.Td visibleFrom="sm">
            <Text size="sm">{formatTimestamp(source.created_at)}</Text>
          </Table.Td>
          <RowActions
            actions={[
              {
                label: "Remove",
                ariaLabel: `Remove source ${source.name}`,
                danger: true,
                icon: <IconTrash size={14} aria-hidden />,
                onClick: () => onRemove(source),
              },
            ]}
          />
        </Table.Tr>
      ))}
    </ResourceTable>
  );
}
