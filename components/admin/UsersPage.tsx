"use client";
import { Button, Text } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { Fragment, lazy, Suspense, useState } from "react";
import type { z } from "zod";
import { ActiveBadge } from "@/components/console/ActiveBadge";
import { useConsoleUser } from "@/components/console/console-user";
import { ListSearch, useListSearch } from "@/components/console/ListSearch";
import { lazyModal } from "@/components/console/lazy";
import { PageHeader } from "@/components/console/PageHeader";
import { QueryView } from "@/components/console/QueryView";
import { ResourceTable } from "@/components/console/ResourceTable";
import { RoleBadge } from "@/components/console/RoleBadge";
import { RowActions } from "@/components/console/RowActions";
import { EmptyList } from "@/components/console/states";
import { Table } from "@/components/console/Table";
import { withUrlState } from "@/components/console/url-state";
import { useConfirm } from "@/components/console/useConfirm";
import { versionOfRow } from "@/components/forms/edit-conflict";
import { formatTimestamp } from "@/lib/client/format";
import { useRemoveUser, useUnlinkSso, useUser, useUsers } from "@/lib/client/hooks/identity";
import { matchesSearch } from "@/lib/client/search";
import type { User } from "@/lib/contracts/identity/schemas";
import { plural } from "@/lib/shared/plural";

// A user's keys load the first time someone opens them: the list itself stays within its first-load budget.
const ApiKeysRow = lazy(() => import("@/components/account/ApiKeysPanel").then((m) => ({ default: m.ApiKeysRow })));

const UserFormModal = lazyModal(() => import("./UserFormModal").then((m) => m.UserFormModal));

type UserRow = z.output<typeof User>;

/** How a user signs in to the console: with a password, with single sign-on (a linked account), both, or neither (API keys only). */
function signInMethods(user: Pick<UserRow, "has_password" | "sso_identity">): string {
  if (user.has_password && user.sso_identity) return "password and SSO";
  if (user.sso_identity) return "SSO";
  return user.has_password ? "password" : "API keys only";
}

/** The linked account as a line: who the provider says they are, and which provider. */
const identityLine = (identity: NonNullable<UserRow["sso_identity"]>) =>
  `${identity.email ?? identity.subject} at ${identity.issuer.replace(/^https?:\/\//, "")}`;

function UsersTable({
  users,
  caption,
  onEdit,
  onDelete,
  onUnlink,
}: {
  users: UserRow[];
  caption: string;
  onEdit: (u: UserRow) => void;
  onDelete: (u: UserRow) => void;
  onUnlink: (u: UserRow) => void;
}) {
  const me = useConsoleUser();
  /** The user whose keys show under their row. */
  const [keysOf, setKeysOf] = useState<string | null>(null);
  return (
    <ResourceTable
      minWidth={340}
      striped
      verticalSpacing="sm"
      testId="users-table"
      caption={caption}
      columns={[
        { label: "User" },
        { label: "Email", visibleFrom: "md" },
        { label: "Role", visibleFrom: "sm" },
        { label: "Status", visibleFrom: "sm" },
        { label: "Signs in with", visibleFrom: "md" },
        { label: "Last sign-in", visibleFrom: "lg" },
      ]}
      actions
    >
      {users.map((user) => (
        <Fragment key={user.id}>
          <Table.Tr>
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
              <ActiveBadge active={user.is_active} />
            </Table.Td>
            <Table.Td visibleFrom="md" data-testid="sign-in-methods">
              <Text size="sm">{signInMethods(user)}</Text>
              {user.sso_identity && (
                <Text size="xs" c="dimmed">
                  {identityLine(user.sso_identity)}
                </Text>
              )}
            </Table.Td>
            <Table.Td visibleFrom="lg">
              <Text size="sm">{formatTimestamp(user.last_sign_in_at)}</Text>
            </Table.Td>
            <RowActions
              name={user.id}
              gap={4}
              actions={[
                { label: "Edit", ariaLabel: `Edit user ${user.id}`, onClick: () => onEdit(user) },
                {
                  label: "Keys",
                  ariaLabel: `API keys of user ${user.id}`,
                  expanded: keysOf === user.id,
                  onClick: () => setKeysOf(keysOf === user.id ? null : user.id),
                },
                ...(user.sso_identity
                  ? [
                      {
                        label: "Unlink SSO",
                        ariaLabel: `Unlink the single-sign-on account of user ${user.id}`,
                        onClick: () => onUnlink(user),
                      },
                    ]
                  : []),
                { label: "Delete", ariaLabel: `Delete user ${user.id}`, danger: true, onClick: () => onDelete(user) },
              ]}
            />
          </Table.Tr>
          {keysOf === user.id && (
            <Suspense fallback={null}>
              <ApiKeysRow owner={{ kind: "user", userId: user.id }} ownerLabel={`user ${user.id}`} colSpan={7} />
            </Suspense>
          )}
        </Fragment>
      ))}
    </ResourceTable>
  );
}

/** Admin › Users: list, create with password and role, edit, delete, and each user's keys. */
function UsersPageView() {
  const users = useUsers();
  const [search, setSearch] = useListSearch();
  const remove = useRemoveUser();
  const unlink = useUnlinkSso();
  const confirmUnlink = useConfirm<UserRow>({
    title: "Unlink single sign-on?",
    confirmLabel: "Unlink",
    message: (user) => (
      <>
        Unlink <strong>{user.id}</strong> from {user.sso_identity ? identityLine(user.sso_identity) : "their single-sign-on account"}? Their
        next single sign-on is matched by email again, so an account with another email no longer signs in as {user.id}. Sessions already
        started go on.
      </>
    ),
    onConfirm: (user) => unlink.mutateAsync({ params: { user_id: user.id } }),
  });
  // The user a delete is asked for, read as it is now: the delete is made against that version.
  const [asked, setAsked] = useState<string | null>(null);
  const shown = useUser(asked);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<UserRow | null>(null);
  const confirmDelete = useConfirm<UserRow>({
    title: "Delete user?",
    confirmLabel: "Delete user",
    message: (user) => (
      <>
        Delete <strong>{user.id}</strong> with their API keys, service accounts, personal sources and templates? This cannot be undone.
      </>
    ),
    onConfirm: async (user) => {
      // Confirmed before the read came back: it is waited for, so the delete goes with its version.
      const now = shown.data?.id === user.id ? shown.data : (await shown.refetch()).data;
      return remove.mutateAsync({ params: { user_id: user.id }, ifMatch: versionOfRow(user, now, "user") });
    },
  });

  return (
    <>
      <PageHeader
        title="Users"
        description="Who may use this server: roles, how they sign in, activation and API keys."
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            New user
          </Button>
        }
      />
      <QueryView
        query={users}
        loading="Loading users…"
        errorTitle="Could not load users"
        isEmpty={(list) => list.length === 0}
        empty={{ title: "No users", description: "Create the first user." }}
      >
        {(list) => {
          const shown = list.filter((u) => matchesSearch(search, u.id, u.display_name, u.email, u.role));
          return (
            <>
              <ListSearch label="users" placeholder="Id, name, email or role" value={search} onChange={setSearch} />
              {shown.length === 0 ? (
                <EmptyList title="No users match" description="Try other words, or clear the search." />
              ) : (
                <UsersTable
                  users={shown}
                  caption={search ? `${shown.length} of ${plural(list.length, "user")}, by id` : "Users, by id"}
                  onEdit={setEditing}
                  onDelete={(user) => {
                    setAsked(user.id);
                    confirmDelete.ask(user);
                  }}
                  onUnlink={confirmUnlink.ask}
                />
              )}
            </>
          );
        }}
      </QueryView>
      {creating && <UserFormModal opened onClose={() => setCreating(false)} />}
      {/* Keyed by user so the form starts from that user's current values. */}
      {editing && <UserFormModal key={editing.id} user={editing} opened onClose={() => setEditing(null)} />}
      {confirmDelete.modal}
      {confirmUnlink.modal}
    </>
  );
}

export const UsersPage = withUrlState(UsersPageView);
