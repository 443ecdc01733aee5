"use client";
import { Anchor, Badge, Button, Table, Text, VisuallyHidden } from "@mantine/core";
import { IconTrash } from "@tabler/icons-react";
import type { z } from "zod";
import { formatTimestamp } from "@/lib/client/format";
import type { Source } from "@/lib/sources/schemas";

type SourceRow = z.output<typeof Source>;

/** The sources of one scope, each with a Remove button. */
export function SourcesTable({ sources, onRemove, caption }: { sources: SourceRow[]; onRemove: (s: SourceRow) => void; caption: string }) {
  return (
    <Table.ScrollContainer minWidth={340}>
      <Table striped highlightOnHover verticalSpacing="sm" data-testid="sources-table">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">URL</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Token
            </Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Added
            </Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
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
              <Table.Td ta="right">
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={14} aria-hidden />}
                  aria-label={`Remove source ${source.name}`}
                  onClick={() => onRemove(source)}
                >
                  Remove
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
