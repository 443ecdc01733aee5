"use client";
import { Anchor, Badge, Group, Loader, Stack, Text } from "@mantine/core";
import { IconAlertTriangle, IconCircleCheck } from "@tabler/icons-react";
import type { z } from "zod";
import { ResourceTable } from "@/components/console/ResourceTable";
import { RowActions } from "@/components/console/RowActions";
import { Table } from "@/components/console/Table";
import { formatTimestamp } from "@/lib/client/format";
import type { CatalogCheck } from "@/lib/client/hooks/sources";
import type { Source } from "@/lib/contracts/sources/schemas";
import { plural } from "@/lib/shared/plural";
import { allowedHostsHint } from "./allowed-hosts";

type SourceRow = z.output<typeof Source>;

/**
 * The sources of one scope, each with when its catalog was last fetched (and, when the last
 * fetch failed, why; after a source was added or edited, what its fresh check found) and Edit
 * and Remove buttons.
 */
export function SourcesTable({
  sources,
  checks,
  onEdit,
  onRemove,
  caption,
}: {
  sources: SourceRow[];
  /** The catalog checks run since the page opened, by source name; null while one runs. */
  checks: ReadonlyMap<string, CatalogCheck | null>;
  onEdit: (s: SourceRow) => void;
  onRemove: (s: SourceRow) => void;
  caption: string;
}) {
  return (
    // On phones each source is a card: a URL and a fetch failure need the whole width.
    <ResourceTable
      minWidth={460}
      stacked
      striped
      highlightOnHover
      verticalSpacing="sm"
      testId="sources-table"
      caption={caption}
      columns={[
        { label: "Name" },
        { label: "URL" },
        { label: "Catalog fetched" },
        { label: "Token", visibleFrom: "sm" },
        { label: "Added", visibleFrom: "sm" },
      ]}
      actions
    >
      {sources.map((source) => (
        <Table.Tr key={source.name}>
          <Table.Th scope="row">
            <Text fw={600} size="sm">
              {source.name}
            </Text>
            {source.description && (
              <Text size="xs" c="dimmed" maw={300} style={{ wordBreak: "break-word" }} data-testid="source-description">
                {source.description}
              </Text>
            )}
          </Table.Th>
          <Table.Td data-label="URL">
            <Anchor href={source.url} target="_blank" rel="noreferrer noopener" size="sm" style={{ wordBreak: "break-all" }}>
              {source.url}
            </Anchor>
          </Table.Td>
          {/* A long failure wraps instead of squeezing the columns beside it. */}
          <Table.Td data-label="Catalog fetched" data-testid="source-catalog-status" maw={300}>
            <CatalogFetchCell source={source} check={checks.get(source.name)} />
          </Table.Td>
          <Table.Td visibleFrom="sm">
            {source.has_auth ? <Badge variant="light">Stored</Badge> : <Badge variant="default">None</Badge>}
          </Table.Td>
          <Table.Td visibleFrom="sm">
            <Text size="sm">{formatTimestamp(source.created_at)}</Text>
          </Table.Td>
          {/* Text buttons, as every table's row actions (the page's first-load JS is at its budget). */}
          <RowActions
            name={source.name}
            actions={[
              {
                label: "Edit",
                ariaLabel: `Edit source ${source.name}`,
                onClick: () => onEdit(source),
              },
              {
                label: "Remove",
                ariaLabel: `Remove source ${source.name}`,
                danger: true,
                onClick: () => onRemove(source),
              },
            ]}
          />
        </Table.Tr>
      ))}
    </ResourceTable>
  );
}

/**
 * When the source's catalog was last fetched; the outcome of the check run after it was added
 * or edited ("8 templates found"); and a "Last fetch failed" badge with the reason when the
 * last fetch failed, with what would allow a host the server refuses. A catalog never fetched
 * because its fetch failed shows the failure alone, not "Never fetched" beside it.
 */
function CatalogFetchCell({ source, check }: { source: SourceRow; check: CatalogCheck | null | undefined }) {
  const failure = check ? (check.ok ? null : check.reason) : source.catalog_error;
  const hint = failure && allowedHostsHint(failure);
  const fetchedAt = source.catalog_fetched_at;
  return (
    <Stack gap={4} align="flex-start">
      {fetchedAt ? <Text size="sm">{formatTimestamp(fetchedAt)}</Text> : !failure && check !== null && <Text size="sm">Never fetched</Text>}
      {check === null && (
        <Group gap={6} role="status">
          <Loader size="xs" aria-hidden />
          <Text size="xs">Fetching the catalog…</Text>
        </Group>
      )}
      {check?.ok && (
        <Text size="sm" c={check.templates ? "green.8" : "orange.8"} fw={500} role="status" data-testid="source-check-result">
          <IconCircleCheck size={14} aria-hidden style={{ verticalAlign: "-2px" }} />{" "}
          {check.templates ? `${plural(check.templates, "template")} found` : "No templates in the catalog"}
          {check.unusable > 0 && ` (${check.unusable} cannot be installed)`}
        </Text>
      )}
      {failure && (
        <>
          <Badge color="red" variant="light" tt="none" leftSection={<IconAlertTriangle size={12} aria-hidden />}>
            Last fetch failed
          </Badge>
          <Text size="xs" c="red.8" style={{ wordBreak: "break-word" }} data-testid="source-catalog-error">
            {failure}
          </Text>
          {hint && (
            <Text size="xs" fw={500} style={{ wordBreak: "break-word" }}>
              {hint}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
