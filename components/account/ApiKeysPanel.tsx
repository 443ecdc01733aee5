"use client";
import { Button, Code, Group, Stack, Table, Text, Title, VisuallyHidden } from "@mantine/core";
import { IconKey, IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { ConfirmModal } from "@/components/console/ConfirmModal";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { formatTimestamp } from "@/lib/client/format";
import { useApiKeys, useRevokeApiKey, type KeyOwnerRef } from "@/lib/client/hooks/api-keys";
import { CreateApiKeyModal } from "./CreateApiKeyModal";

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
  const [revoking, setRevoking] = useState<{ id: string; prefix: string } | null>(null);

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
      {keys.isPending ? (
        <LoadingState label="Loading API keys…" />
      ) : keys.isError ? (
        <ErrorState title="Could not load API keys" error={keys.error} onRetry={() => keys.refetch()} />
      ) : keys.data.length === 0 ? (
        <EmptyList title="No API keys" description={`Programs act as ${ownerLabel} with an API key in Authorization: Bearer <key>.`} />
      ) : (
        <Table.ScrollContainer minWidth={300}>
          <Table verticalSpacing="xs" data-testid="api-keys-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Key</Table.Th>
                <Table.Th scope="col">Description</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  Created
                </Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  Last used
                </Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.map((key) => (
                <Table.Tr key={key.id}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <IconKey size={14} aria-hidden />
                      <Code>{key.prefix}…</Code>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{key.description ?? "—"}</Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm">{formatTimestamp(key.created_at)}</Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm">{formatTimestamp(key.last_used_at)}</Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Button size="xs" variant="subtle" color="red" aria-label={`Revoke key ${key.prefix}`} onClick={() => setRevoking(key)}>
                      Revoke
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <CreateApiKeyModal owner={owner} ownerLabel={ownerLabel} opened={creating} onClose={() => setCreating(false)} />
      <ConfirmModal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title="Revoke API key?"
        confirmLabel="Revoke key"
        onConfirm={() => revoke.revoke(revoking!.id)}
      >
        Programs using the key <Code>{revoking?.prefix}…</Code> will be refused from now on. This cannot be undone.
      </ConfirmModal>
    </Stack>
  );
}
