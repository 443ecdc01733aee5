"use client";
import { Button, Group, Modal, Stack, Table, Text, Title, VisuallyHidden } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { RoleBadge } from "@/components/console/RoleBadge";
import { ConfirmModal } from "@/components/console/ConfirmModal";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { useRemoveServiceAccount, useServiceAccounts } from "@/lib/client/hooks/identity";
import { ApiKeysPanel } from "./ApiKeysPanel";
import { CreateServiceAccountModal } from "./CreateServiceAccountModal";

/** The signed-in user's service accounts: create, delete, and manage each one's keys. */
export function ServiceAccountsPanel() {
  const accounts = useServiceAccounts();
  const remove = useRemoveServiceAccount();
  const [creating, setCreating] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [keysOf, setKeysOf] = useState<string | null>(null);

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          Service accounts
        </Title>
        <Button size="sm" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          New service account
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        A service account acts for you in programs: it sees your sources and templates, with its own keys you can revoke
        separately.
      </Text>
      {accounts.isPending ? (
        <LoadingState label="Loading service accounts…" />
      ) : accounts.isError ? (
        <ErrorState title="Could not load service accounts" error={accounts.error} onRetry={() => accounts.refetch()} />
      ) : accounts.data.length === 0 ? (
        <EmptyList title="No service accounts" description="Create one for a CI pipeline or a bot, then give it a key." />
      ) : (
        <Table.ScrollContainer minWidth={300}>
          <Table verticalSpacing="xs" data-testid="service-accounts-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">ID</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  Name
                </Table.Th>
                <Table.Th scope="col">Role</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {accounts.data.map((account) => (
                <Table.Tr key={account.id}>
                  <Table.Th scope="row">
                    <Text size="sm" fw={600}>
                      {account.id}
                    </Text>
                  </Table.Th>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm">{account.display_name}</Text>
                  </Table.Td>
                  <Table.Td>
                    <RoleBadge role={account.role} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="light" aria-label={`API keys of ${account.id}`} onClick={() => setKeysOf(account.id)}>
                        Keys
                      </Button>
                      <Button size="xs" variant="subtle" color="red" aria-label={`Delete service account ${account.id}`} onClick={() => setRemoving(account.id)}>
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <CreateServiceAccountModal opened={creating} onClose={() => setCreating(false)} />
      <Modal opened={keysOf !== null} onClose={() => setKeysOf(null)} title={`Service account ${keysOf ?? ""}`} size="xl" centered>
        {keysOf && (
          <ApiKeysPanel
            owner={{ kind: "serviceAccount", saId: keysOf }}
            ownerLabel={`service account ${keysOf}`}
            title="API keys"
            headingOrder={3}
          />
        )}
      </Modal>
      <ConfirmModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title="Delete service account?"
        confirmLabel="Delete service account"
        onConfirm={() => remove.mutateAsync({ params: { sa_id: removing! } })}
      >
        Delete <strong>{removing}</strong> and revoke all its keys? Programs using them will be refused.
      </ConfirmModal>
    </Stack>
  );
}
