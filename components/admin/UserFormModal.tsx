"use client";
import { PasswordInput, Select, Switch, TextInput } from "@mantine/core";
import type { z } from "zod";
import { versionOfRow } from "@/components/forms/edit-conflict";
import { FormModal } from "@/components/forms/FormModal";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useFormValues } from "@/components/forms/useFormValues";
import { useCreateUser, useUpdateUser, useUser } from "@/lib/client/hooks/identity";
import type { Role } from "@/lib/contracts/fields";
import type { User } from "@/lib/contracts/identity/schemas";

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
  // The user read again as the dialog opens: the edit is written against that version (If-Match),
  // as long as it still holds what the row showed. A change meanwhile is refused, never overwritten.
  const now = useUser(user?.id ?? null);
  const form = useFormSubmit(FIELDS);
  const fields = useFormValues({
    id: user?.id ?? "",
    displayName: user?.display_name ?? "",
    email: user?.email ?? "",
    role: (user?.role ?? "member") as Role,
    active: user?.is_active ?? true,
    password: "",
  });

  const submit = async () => {
    const { id, displayName, email, role, active, password } = fields.values;
    const saved = await form.submit(async () =>
      editing
        ? update.mutateAsync({
            params: { user_id: user.id },
            // Saved before the read came back: it is waited for, so the edit goes with its version.
            ifMatch: versionOfRow(user, now.data ?? (await now.refetch()).data, "user"),
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
    if (saved) onClose();
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={editing ? `Edit user ${user.id}` : "New user"}
      submitLabel={editing ? "Save changes" : "Create user"}
      form={form}
      onSubmit={submit}
      dirty={fields.dirty}
    >
      {!editing && (
        <TextInput
          label="User name"
          description="The user's id and sign-in name: lower-case letters, digits, '.', '_', '@' or '-'."
          placeholder="carol"
          required
          {...fields.text("id")}
          error={form.fieldError("id")}
          data-autofocus
        />
      )}
      <TextInput label="Display name" placeholder="Carol Jones" {...fields.text("displayName")} error={form.fieldError("display_name")} />
      <TextInput
        label="Email"
        description="Used to match single sign-on accounts."
        type="email"
        {...fields.text("email")}
        error={form.fieldError("email")}
      />
      <Select
        label="Role"
        data={ROLE_OPTIONS}
        value={fields.values.role}
        onChange={(value) => fields.set("role", (value as Role) ?? "member")}
        allowDeselect={false}
        error={form.fieldError("role")}
      />
      {editing && (
        <Switch
          label="Active"
          description="Inactive users cannot sign in, and their keys and sessions stop working at once."
          {...fields.checkbox("active")}
          error={form.fieldError("is_active")}
        />
      )}
      <PasswordInput
        label={editing ? "New password" : "Password"}
        description={
          editing
            ? "Leave empty to keep the current password."
            : "At least 8 characters. Without one, the user can only use API keys or single sign-on."
        }
        autoComplete="new-password"
        {...fields.text("password")}
        error={form.fieldError("password")}
      />
    </FormModal>
  );
}
