"use client";
import { Button, Group, Modal, PasswordInput, Select, Stack, Switch, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import type { z } from "zod";
import { FormError } from "@/components/console/states";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useCreateUser, useUpdateUser } from "@/lib/client/hooks/identity";
import type { Role } from "@/lib/identity/principal";
import type { User } from "@/lib/identity/schemas";

const FIELDS = ["id", "display_name", "email", "role", "is_active", "password"] as const;
type UserRow = z.output<typeof User>;

const ROLE_OPTIONS = [
  { value: "member", label: "Member" },
  { value: "admin", label: "Admin" },
];

/**
 * Creates a user (`user` absent) or edits one: name, email, role, activation, and a new
 * password (left empty, the password stays as it is).
 */
export function UserFormModal({ user, opened, onClose }: { user?: UserRow; opened: boolean; onClose: () => void }) {
  const editing = user !== undefined;
  const create = useCreateUser();
  const update = useUpdateUser();
  const form = useFormSubmit(FIELDS);
  const [id, setId] = useState(user?.id ?? "");
  const [displayName, setDisplayName] = useState(user?.display_name ?? "");
  const [email, setEmail] = useState(user?.email ?? "");
  const [role, setRole] = useState<Role>(user?.role ?? "member");
  const [active, setActive] = useState(user?.is_active ?? true);
  const [password, setPassword] = useState("");

  const close = () => {
    form.reset();
    onClose();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await form.submit(() =>
      editing
        ? update.mutateAsync({
            params: { user_id: user.id },
            body: {
              display_name: displayName.trim() || undefined,
              email: email.trim() || null,
              role,
              is_active: active,
              password: password || undefined,
            },
          })
        : create.mutateAsync({
            body: {
              id: id.trim(),
              display_name: displayName.trim() || undefined,
              email: email.trim() || undefined,
              role,
              password: password || undefined,
            },
          }),
    );
    if (saved) close();
  };

  return (
    <Modal opened={opened} onClose={close} title={editing ? `Edit user ${user.id}` : "New user"} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {!editing && (
            <TextInput
              label="User name"
              description="The user's id and sign-in name: lower-case letters, digits, '.', '_', '@' or '-'."
              placeholder="carol"
              required
              value={id}
              onChange={(e) => setId(e.currentTarget.value)}
              error={form.fieldError("id")}
              data-autofocus
            />
          )}
          <TextInput
            label="Display name"
            placeholder="Carol Jones"
            value={displayName}
            onChange={(e) => setDisplayName(e.currentTarget.value)}
            error={form.fieldError("display_name")}
          />
          <TextInput
            label="Email"
            description="Used to match single sign-on accounts."
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={form.fieldError("email")}
          />
          <Select
            label="Role"
            data={ROLE_OPTIONS}
            value={role}
            onChange={(value) => setRole((value as Role) ?? "member")}
            allowDeselect={false}
            error={form.fieldError("role")}
          />
          {editing && (
            <Switch
              label="Active"
              description="Inactive users cannot sign in, and their keys and sessions stop working at once."
              checked={active}
              onChange={(e) => setActive(e.currentTarget.checked)}
              error={form.fieldError("is_active")}
            />
          )}
          <PasswordInput
            label={editing ? "New password" : "Password"}
            description={editing ? "Leave empty to keep the current password." : "At least 8 characters. Without one, the user can only use API keys or single sign-on."}
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={form.fieldError("password")}
          />
          <FormError message={form.formError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={form.busy}>
              {editing ? "Save changes" : "Create user"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
