"use client";
import { Badge, Button, Group, Modal, Table, Text, VisuallyHidden } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import type { z } from "zod";
import { ApiKeysPanel } from "@/components/account/ApiKeysPanel";
import { useConsoleUser } from "@/components/console/console-user";
import { ConfirmModal } from "@/components/console/ConfirmModal";
import { RoleBadge } from "@/components/console/RoleBadge";
import { PageHeader } from "@/components/console/PageHeader";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { useRemoveUser, useUsers } from "@/lib/client/hooks/identity";
import type { User } from "@/lib/identity/schemas";
import { UserFormModal } from "./UserFormModal";

type UserRow = z.output<typeof User>;

function UsersTable({ users, onEdit, onKeys, onDelete }: { users: UserRow[]; onEdit: (u: UserRow) => void; onKeys: (u: UserRow) => void; onDelete: (u: UserRow) => void }) {
  const me = useConsoleUser();
  return (
    <Table.ScrollContainer minWidth={340}>
      <Table striped verticalSpacing="sm" data-testid="users-table">
        <Table.Caption>Users, by id</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">User</Table.Th>
            <Table.Th scope="col" visibleFrom="md">
              Email
            </Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Role
            </Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Status
            </Table.Th>
            <Table.Th scope="col" visibleFrom="md">
              Password
            </Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.id}>
              <Table.Th scope="row">
                <Text size="sm" fw={600}>
                  {user.id}
                  {user.id === me.id && (
                    <Text span c="dimmed" size="sm" fw={400}>
                      {" "}
                      (you)
                    </Text>
                  )}
                </Text>
                <Text size="xs" c="dimmed">
                  {user.display_name}
                </Text>
                {/* Phones have no role and status columns: say them here. */}
                <Text size="xs" hiddenFrom="sm" c={user.is_active ? "dimmed" : "red"}>
                  {user.role}
                  {user.is_active ? "" : ", inactive"}
                </Text>
              </Table.Th>
              <Table.Td visibleFrom="md">
                <Text size="sm">{user.email ?? "—"}</Text>
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <RoleBadge role={user.role} />
              </Table.Td>
              <Table.Td visibleFrom="sm">
                {user.is_active ? <Badge color="green" variant="light">active</Badge> : <Badge color="gray">inactive</Badge>}
              </Table.Td>
              <Table.Td visibleFrom="md">
                <Text size="sm">{user.has_password ? "set" : "none"}</Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Button size="xs" variant="light" aria-label={`Edit user ${user.id}`} onClick={() => onEdit(user)}>
                    Edit
                  </Button>
                  <Button size="xs" variant="light" aria-label={`API keys of user ${user.id}`} onClick={() => onKeys(user)}>
                    Keys
                  </Button>
                  <Button size="xs" variant="subtle" color="red" aria-label={`Delete user ${user.id}`} onClick={() => onDelete(user)}>
                    Delete
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Admin › Users: list, create with password and role, edit, delete, and each user's keys. */
export function UsersPage() {
  const users = useUsers();
  const remove = useRemoveUser();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<UserRow | null>(null);
  const [keysOf, setKeysOf] = useState<UserRow | null>(null);
  const [deleting, setDeleting] = useState<UserRow | null>(null);

  return (
    <>
      <PageHeader
        title="Users"
        description="Who may use this server: roles, passwords, activation and API keys."
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            New user
          </Button>
        }
      />
      {users.isPending ? (
        <LoadingState label="Loading users…" />
      ) : users.isError ? (
        <ErrorState title="Could not load users" error={users.error} onRetry={() => users.refetch()} />
      ) : users.data.length === 0 ? (
        <EmptyList title="No users" description="Create the first user." />
      ) : (
        <UsersTable users={users.data} onEdit={setEditing} onKeys={setKeysOf} onDelete={setDeleting} />
      )}
      {creating && <UserFormModal opened onClose={() => setCreating(false)} />}
      {/* Keyed by user so the form starts from that user's current values. */}
      {editing && <UserFormModal key={editing.id} user={editing} opened onClose={() => setEditing(null)} />}
      <Modal opened={keysOf !== null} onClose={() => setKeysOf(null)} title={`User ${keysOf?.id ?? ""}`} size="xl" centered>
        {keysOf && <ApiKeysPanel owner={{ kind: "user", userId: keysOf.id }} ownerLabel={`user ${keysOf.id}`} title="API keys" headingOrder={3} />}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete user?"
        confirmLabel="Delete user"
        onConfirm={() => remove.mutateAsync({ params: { user_id: deleting!.id } })}
      >
        Delete <strong>{deleting?.id}</strong> with their API keys, service accounts, personal sources and templates? This
        cannot be undone.
      </ConfirmModal>
    </>
  );
}
