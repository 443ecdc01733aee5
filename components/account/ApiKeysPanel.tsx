"use client";
import { Badge, Button, Code, Group, Stack, Text, Title } from "@mantine/core";
import { IconKey, IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { lazyModal } from "@/components/console/lazy";
import { QueryView } from "@/components/console/QueryView";
import { ResourceTable } from "@/components/console/ResourceTable";
import { RowActions } from "@/components/console/RowActions";
import { Table } from "@/components/console/Table";
import { useConfirm } from "@/components/console/useConfirm";
import { formatTimestamp } from "@/lib/client/format";
import { type KeyOwnerRef, useApiKeys, useRevokeApiKey } from "@/lib/client/hooks/api-keys";
import { KeyExpiry } from "./KeyExpiry";

const CreateApiKeyModal = lazyModal(() => import("./CreateApiKeyModal").then((m) => m.CreateApiKeyModal));

interface ApiKeysPanelProps {
  owner: KeyOwnerRef;
  /** Who the keys belong to, in words: "you", "service account ci-bot", "user carol". */
  ownerLabel: string;
  title: string;
  headingOrder?: 2 | 3;
}

/** One owner's API keys: list (prefix only; tokens are never shown again), create, revoke. */
export function ApiKeysPanel({ owner, ownerLabel, title, headingOrder = 2 }: ApiKeysPanelProps) {
  const keys = useApiKeys(owner);
  const revoke = useRevokeApiKey(owner);
  const [creating, setCreating] = useState(false);
  const confirmRevoke = useConfirm<{ id: string; prefix: string }>({
    title: "Revoke API key?",
    confirmLabel: "Revoke key",
    message: (key) => (
      <>
        Programs using the key <Code>{key.prefix}…</Code> will be refused from now on. This cannot be undone.
      </>
    ),
    onConfirm: (key) => revoke.revoke(key.id),
  });

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={headingOrder} size="h4">
          {title}
        </Title>
        <Button size="sm" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          Create API key
        </Button>
      </Group>
      <QueryView
        query={keys}
        loading="Loading API keys…"
        errorTitle="Could not load API keys"
        isEmpty={(list) => list.length === 0}
        empty={{ title: "No API keys", description: `Programs act as ${ownerLabel} with an API key in Authorization: Bearer <key>.` }}
      >
        {(list) => (
          // On phones each key is a card: its prefix, description and expiry need the width.
          <ResourceTable
            minWidth={420}
            stacked
            verticalSpacing="xs"
            testId="api-keys-table"
            caption={owner.kind === "self" ? "Your API keys" : `API keys of ${ownerLabel}`}
            columns={[
              { label: "Key" },
              { label: "Description" },
              { label: "Expires" },
              { label: "Created", visibleFrom: "sm" },
              { label: "Last used", visibleFrom: "sm" },
            ]}
            actions
          >
            {list.map((key) => (
              <Table.Tr key={key.id}>
                <Table.Td>
                  <Group gap={6}>
                    <IconKey size={14} aria-hidden />
                    <Code>{key.prefix}…</Code>
                    {key.scope === "read" && (
                      <Badge color="blue" variant="light" size="sm" tt="none">
                        read-only
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td data-label="Description">
                  <Text size="sm">{key.description ?? "—"}</Text>
                </Table.Td>
                <Table.Td data-label="Expires">
                  <KeyExpiry expiresAt={key.expires_at} />
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm">{formatTimestamp(key.created_at)}</Text>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm">{formatTimestamp(key.last_used_at)}</Text>
                </Table.Td>
                <RowActions
                  name={`key ${key.prefix}`}
                  actions={[
                    { label: "Revoke", ariaLabel: `Revoke key ${key.prefix}`, danger: true, onClick: () => confirmRevoke.ask(key) },
                  ]}
                />
              </Table.Tr>
            ))}
          </ResourceTable>
        )}
      </QueryView>
      <CreateApiKeyModal owner={owner} ownerLabel={ownerLabel} opened={creating} onClose={() => setCreating(false)} />
      {confirmRevoke.modal}
    </Stack>
  );
}

/**
 * A user's or service account's keys, in a row of its own under theirs (their row's Keys action
 * shows it): in the page, not a dialog, so that creating or revoking a key opens one dialog, never
 * one on top of another.
 */
export function ApiKeysRow({
  owner,
  ownerLabel,
  colSpan,
  headingOrder,
}: Pick<ApiKeysPanelProps, "owner" | "ownerLabel" | "headingOrder"> & { colSpan: number }) {
  return (
    <Table.Tr data-testid="api-keys-row">
      <Table.Td colSpan={colSpan}>
        <ApiKeysPanel owner={owner} ownerLabel={ownerLabel} title={`API keys of ${ownerLabel}`} headingOrder={headingOrder} />
      </Table.Td>
    </Table.Tr>
  );
}
