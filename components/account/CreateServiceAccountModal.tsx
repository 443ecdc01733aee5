"use client";
import { Button, Group, Modal, Select, Stack, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { useConsoleUser } from "@/components/console/console-user";
import { FormError } from "@/components/console/states";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useCreateServiceAccount } from "@/lib/client/hooks/identity";
import type { Role } from "@/lib/identity/principal";

const FIELDS = ["id", "display_name", "role"] as const;

/** Creates a service account acting for the signed-in user; only admins may make an admin one. */
export function CreateServiceAccountModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const user = useConsoleUser();
  const create = useCreateServiceAccount();
  const form = useFormSubmit(FIELDS);
  const [id, setId] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [role, setRole] = useState<Role>("member");

  const close = () => {
    setId("");
    setDisplayName("");
    setRole("member");
    form.reset();
    onClose();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await form.submit(() =>
      create.mutateAsync({ body: { id: id.trim(), display_name: displayName.trim() || undefined, role } }),
    );
    if (created) close();
  };

  return (
    <Modal opened={opened} onClose={close} title="New service account" centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <TextInput
            label="ID"
            description="Lower-case letters, digits, '.', '_', '@' or '-'. Unique among your service accounts."
            placeholder="ci-bot"
            required
            value={id}
            onChange={(e) => setId(e.currentTarget.value)}
            error={form.fieldError("id")}
            data-autofocus
          />
          <TextInput
            label="Display name"
            placeholder="CI pipeline"
            value={displayName}
            onChange={(e) => setDisplayName(e.currentTarget.value)}
            error={form.fieldError("display_name")}
          />
          {user.role === "admin" && (
            <Select
              label="Role"
              description="An admin service account acts as an admin only while you are one."
              data={[
                { value: "member", label: "Member" },
                { value: "admin", label: "Admin" },
              ]}
              value={role}
              onChange={(value) => setRole((value as Role) ?? "member")}
              allowDeselect={false}
              error={form.fieldError("role")}
            />
          )}
          <FormError message={form.formError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={form.busy}>
              Create service account
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
