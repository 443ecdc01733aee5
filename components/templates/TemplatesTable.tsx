"use client";
import { ActionIcon, Anchor, Badge, Button, Group, Text, VisuallyHidden } from "@mantine/core";
import { IdleTooltip } from "@/components/console/IdleTooltip";
import { Table } from "@/components/console/Table";
import { IconDownload, IconTrash } from "@tabler/icons-react";
import Link from "next/link";
import { useCheckUpdate, type TemplateData } from "@/lib/client/hooks/templates";
import type { ScopeKind } from "@/lib/identity/scope";
import { templatePath } from "./paths";
import { UpdateStatus } from "./UpdateStatus";

interface Props {
  scope: ScopeKind;
  templates: TemplateData[];
  onUpdate: (t: TemplateData) => void;
  onDelete: (t: TemplateData) => void;
  caption: string;
}

/** Installed templates, one row each, with their source, revision, update state and actions. */
export function TemplatesTable({ scope, templates, onUpdate, onDelete, caption }: Props) {
  return (
    // The browser's own sideways scrolling: Table.ScrollContainer's ScrollArea brings floating-ui into the first load.
    <div style={{ overflowX: "auto" }}>
      <Table striped highlightOnHover verticalSpacing="sm" data-testid="templates-table" miw={360}>
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Template</Table.Th>
            <Table.Th scope="col" visibleFrom="md">
              Category and tags
            </Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Source
            </Table.Th>
            <Table.Th scope="col" visibleFrom="lg">
              Revision
            </Table.Th>
            <Table.Th scope="col">Updates</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {templates.map((t) => (
            <TemplateRow key={t.id} scope={scope} template={t} onUpdate={onUpdate} onDelete={onDelete} />
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

function TemplateRow({ scope, template: t, onUpdate, onDelete }: { scope: ScopeKind; template: TemplateData } & Pick<Props, "onUpdate" | "onDelete">) {
  const check = useCheckUpdate(scope, t.id, { enabled: false });
  const hasUpdate = check.data?.has_update === true;
  return (
    <Table.Tr data-testid={`template-row-${t.id}`}>
      <Table.Th scope="row" fw="normal">
        <Anchor component={Link} href={templatePath(scope, t.id)} fw={600} size="sm">
          {t.id}
        </Anchor>
        <Text size="sm">{t.name}</Text>
        {t.locally_modified && (
          <Badge color="yellow" variant="light" size="sm" mt={4} style={{ minWidth: "max-content" }}>
            Edited locally
          </Badge>
        )}
      </Table.Th>
      <Table.Td visibleFrom="md">
        <Group gap={4}>
          {t.category && (
            <Badge variant="outline" size="sm" tt="none">
              {t.category}
            </Badge>
          )}
          {t.tags.map((tag) => (
            <Badge key={tag} variant="default" size="sm" tt="none">
              #{tag}
            </Badge>
          ))}
          {!t.category && t.tags.length === 0 && (
            <Text size="sm" c="dimmed">
              —
            </Text>
          )}
        </Group>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        {t.source_name ? (
          <Text size="sm">
            {t.source_name}
            {t.source_scope === "server" && (
              <Text component="span" size="xs" c="dimmed">
                {" "}
                (server)
              </Text>
            )}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            none
          </Text>
        )}
      </Table.Td>
      <Table.Td visibleFrom="lg">
        <Text size="sm" ff="monospace">
          {t.source_revision ? t.source_revision.slice(0, 8) : "—"}
        </Text>
      </Table.Td>
      <Table.Td>
        <UpdateStatus scope={scope} template={t} />
      </Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {hasUpdate && (
            <Button size="xs" variant="light" leftSection={<IconDownload size={14} aria-hidden />} aria-label={`Update template ${t.id}`} onClick={() => onUpdate(t)}>
              Update
            </Button>
          )}
          <IdleTooltip label="Delete">
            <ActionIcon variant="subtle" color="red" aria-label={`Delete template ${t.id}`} onClick={() => onDelete(t)}>
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </IdleTooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
