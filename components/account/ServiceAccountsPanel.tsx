"use client";
import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { Fragment, useState } from "react";
import { lazyModal } from "@/components/console/lazy";
import { QueryView } from "@/components/console/QueryView";
import { ResourceTable } from "@/components/console/ResourceTable";
import { RoleBadge } from "@/components/console/RoleBadge";
import { RowActions } from "@/components/console/RowActions";
import { Table } from "@/components/console/Table";
import { useConfirm } from "@/components/console/useConfirm";
import { versionOfRow } from "@/components/forms/edit-conflict";
import { useRemoveServiceAccount, useServiceAccount, useServiceAccounts } from "@/lib/client/hooks/identity";
import { ApiKeysRow } from "./ApiKeysPanel";

const CreateServiceAccountModal = lazyModal(() => import("./CreateServiceAccountModal").then((m) => m.CreateServiceAccountModal));

/** The signed-in user's service accounts: create, delete, and manage each one's keys (under its row). */
export function ServiceAccountsPanel() {
  const accounts = useServiceAccounts();
  const remove = useRemoveServiceAccount();
  // The account a delete is asked for, read as it is now: the delete is made against that version.
  const [asked, setAsked] = useState<string | null>(null);
  const shown = useServiceAccount(asked);
  const [creating, setCreating] = useState(false);
  const [keysOf, setKeysOf] = useState<string | null>(null);
  const rows = new Map((accounts.data ?? []).map((account) => [account.id, account]));
  const confirmRemove = useConfirm<string>({
    title: "Delete service account?",
    confirmLabel: "Delete service account",
    message: (id) => (
      <>
        Delete <strong>{id}</strong> and revoke all its keys? Programs using them will be refused.
      </>
    ),
    onConfirm: async (id) => {
      // Confirmed before the read came back: it is waited for, so the delete goes with its version.
      const now = shown.data?.id === id ? shown.data : (await shown.refetch()).data;
      return remove.mutateAsync({
        params: { sa_id: id },
        ifMatch: rows.has(id) ? versionOfRow(rows.get(id)!, now, "service account") : undefined,
      });
    },
  });

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
        A service account acts for you in programs: it sees your sources and templates, with its own keys you can revoke separately.
      </Text>
      <QueryView
        query={accounts}
        loading="Loading service accounts…"
        errorTitle="Could not load service accounts"
        isEmpty={(list) => list.length === 0}
        empty={{ title: "No service accounts", description: "Create one for a CI pipeline or a bot, then give it a key." }}
      >
        {(list) => (
          <ResourceTable
            verticalSpacing="xs"
            testId="service-accounts-table"
            caption="Your service accounts"
            columns={[{ label: "ID" }, { label: "Name", visibleFrom: "sm" }, { label: "Role" }]}
            actions
          >
            {list.map((account) => (
              <Fragment key={account.id}>
                <Table.Tr>
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
                  <RowActions
                    name={account.id}
                    actions={[
                      {
                        label: "Keys",
                        ariaLabel: `API keys of ${account.id}`,
                        expanded: keysOf === account.id,
                        onClick: () => setKeysOf(keysOf === account.id ? null : account.id),
                      },
                      {
                        label: "Delete",
                        ariaLabel: `Delete service account ${account.id}`,
                        danger: true,
                        onClick: () => {
                          setAsked(account.id);
                          confirmRemove.ask(account.id);
                        },
                      },
                    ]}
                  />
                </Table.Tr>
                {keysOf === account.id && (
                  <ApiKeysRow
                    owner={{ kind: "serviceAccount", saId: account.id }}
                    ownerLabel={`service account ${account.id}`}
                    colSpan={4}
                    headingOrder={3}
                  />
                )}
              </Fragment>
            ))}
          </ResourceTable>
        )}
      </QueryView>
      <CreateServiceAccountModal opened={creating} onClose={() => setCreating(false)} />
      {confirmRemove.modal}
    </Stack>
  );
}
