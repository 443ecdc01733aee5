"use client";
import { Anchor, Badge, Group, Text, VisuallyHidden } from "@mantine/core";
import { IconBuildingBank, IconDownload, IconTrash } from "@tabler/icons-react";
import Link from "next/link";
import { newBankFromTemplateHref } from "@/components/banks/links";
import { type RowAction, RowActions } from "@/components/console/RowActions";
import { ScrollRegion } from "@/components/console/ScrollRegion";
import { Table } from "@/components/console/Table";
import { hasUpdate, type TemplateData } from "@/lib/client/hooks/templates";
import type { ScopeKind } from "@/lib/contracts/scope";
import { templatePath } from "./paths";
import { UpdateStatus } from "./UpdateStatus";

interface Props {
  scope: ScopeKind;
  templates: TemplateData[];
  /** What the caller may do: `manage` (update, delete) or `use` (a member's view of server templates). */
  access: "manage" | "use";
  /** Why this page's last check failed, by template id. */
  checkFailures: ReadonlyMap<string, string>;
  onUpdate: (t: TemplateData) => void;
  onDelete: (t: TemplateData) => void;
  caption: string;
}

/** Installed templates, one row each, with their source, revision, update state and actions. */
export function TemplatesTable({ scope, templates, access, checkFailures, onUpdate, onDelete, caption }: Props) {
  return (
    <ScrollRegion label={caption}>
      <Table striped highlightOnHover verticalSpacing="sm" data-testid="templates-table" miw={300}>
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
            {access === "manage" && <Table.Th scope="col">Updates</Table.Th>}
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {templates.map((t) => (
            <TemplateRow
              key={t.id}
              scope={scope}
              template={t}
              access={access}
              checkFailure={checkFailures.get(t.id)}
              onUpdate={onUpdate}
              onDelete={onDelete}
            />
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}

/** What the caller may do with a template: create a bank from it (use), or update and delete it (manage). */
function rowActions(scope: ScopeKind, t: TemplateData, access: Props["access"], onUpdate: Props["onUpdate"], onDelete: Props["onDelete"]) {
  const actions: RowAction[] = [];
  if (access === "use") {
    actions.push({
      label: "Create a bank",
      ariaLabel: `Create a bank from ${t.id}`,
      href: newBankFromTemplateHref(scope, t.id),
      icon: <IconBuildingBank size={14} aria-hidden />,
    });
    return actions;
  }
  if (hasUpdate(t)) {
    actions.push({
      label: "Update",
      ariaLabel: `Update template ${t.id}`,
      icon: <IconDownload size={14} aria-hidden />,
      onClick: () => onUpdate(t),
    });
  }
  actions.push({
    label: "Delete",
    ariaLabel: `Delete template ${t.id}`,
    icon: <IconTrash size={14} aria-hidden />,
    danger: true,
    onClick: () => onDelete(t),
  });
  return actions;
}

type RowProps = { scope: ScopeKind; template: TemplateData; checkFailure?: string } & Pick<Props, "access" | "onUpdate" | "onDelete">;

function TemplateRow({ scope, template: t, access, checkFailure, onUpdate, onDelete }: RowProps) {
  return (
    <Table.Tr data-testid={`template-row-${t.id}`}>
      <Table.Th scope="row" fw="normal">
        <Anchor component={Link} href={templatePath(scope, t.id)} fw={600} size="sm">
          {t.id}
        </Anchor>
        <Text size="sm">{t.name}</Text>
        {t.locally_modified && (
          <Badge color="yellow" variant="light" size="sm" mt={4}>
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
      {access === "manage" && (
        <Table.Td>
          <UpdateStatus template={t} checkFailure={checkFailure} />
        </Table.Td>
      )}
      <RowActions name={t.id} gap={4} actions={rowActions(scope, t, access, onUpdate, onDelete)} />
    </Table.Tr>
  );
}
