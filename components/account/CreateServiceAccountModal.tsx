"use client";
import { Select, TextInput } from "@mantine/core";
import { useConsoleUser } from "@/components/console/console-user";
import { FormModal } from "@/components/forms/FormModal";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useFormValues } from "@/components/forms/useFormValues";
import { useCreateServiceAccount } from "@/lib/client/hooks/identity";
import type { Role } from "@/lib/services/context";

const FIELDS = ["id", "display_name", "role"] as const;

/** Creates a service account acting for the signed-in user; only admins may make an admin one. */
export function CreateServiceAccountModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const user = useConsoleUser();
  const create = useCreateServiceAccount();
  const form = useFormSubmit(FIELDS);
  const fields = useFormValues({ id: "", displayName: "", role: "member" as Role });

  const close = () => {
    fields.reset();
    onClose();
  };

  const submit = async () => {
    const { id, displayName, role } = fields.values;
    const created = await form.submit(() =>
      create.mutateAsync({ body: { id: id.trim(), display_name: displayName.trim() || undefined, role } }),
    );
    if (created) close();
  };

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="New service account"
      submitLabel="Create service account"
      form={form}
      onSubmit={submit}
      dirty={fields.dirty}
    >
      <TextInput
        label="ID"
        description="Lower-case letters, digits, '.', '_', '@' or '-'. Unique among your service accounts."
        placeholder="ci-bot"
        required
        {...fields.text("id")}
        error={form.fieldError("id")}
        data-autofocus
      />
      <TextInput label="Display name" placeholder="CI pipeline" {...fields.text("displayName")} error={form.fieldError("display_name")} />
      {user.role === "admin" && (
        <Select
          label="Role"
          description="An admin service account acts as an admin only while you are one."
          data={[
            { value: "member", label: "Member" },
            { value: "admin", label: "Admin" },
          ]}
          value={fields.values.role}
          onChange={(value) => fields.set("role", (value as Role) ?? "member")}
          allowDeselect={false}
          error={form.fieldError("role")}
        />
      )}
    </FormModal>
  );
}
