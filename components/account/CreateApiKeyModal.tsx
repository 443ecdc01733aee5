"use client";
import { Button, Group, Stack, TextInput } from "@mantine/core";
import { useState } from "react";
import { TokenOnce } from "@/components/console/TokenOnce";
import { FormModal } from "@/components/forms/FormModal";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useFormValues } from "@/components/forms/useFormValues";
import { useCreateApiKey, type KeyOwnerRef } from "@/lib/client/hooks/api-keys";

const FIELDS = ["description"] as const;

/** Creates a key; after creation the dialog shows its token, once, until closed. */
export function CreateApiKeyModal({ owner, ownerLabel, opened, onClose }: { owner: KeyOwnerRef; ownerLabel: string; opened: boolean; onClose: () => void }) {
  const create = useCreateApiKey(owner);
  const form = useFormSubmit(FIELDS);
  const fields = useFormValues({ description: "" });
  const [token, setToken] = useState<string | null>(null);

  const close = () => {
    fields.reset();
    setToken(null);
    onClose();
  };

  const submit = async () => {
    const created = await form.submit(() => create.create(fields.values.description.trim() || null));
    if (created) setToken(created.token);
  };

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title={`New API key for ${ownerLabel}`}
      size="lg"
      submitLabel="Create key"
      form={form}
      onSubmit={submit}
      result={
        token && (
          <Stack>
            <TokenOnce token={token} />
            <Group justify="flex-end">
              <Button onClick={close}>Done</Button>
            </Group>
          </Stack>
        )
      }
    >
      <TextInput
        label="Description"
        description="What the key is for, to recognise it later (optional)."
        placeholder="CI pipeline"
        maxLength={200}
        {...fields.text("description")}
        error={form.fieldError("description")}
        data-autofocus
      />
    </FormModal>
  );
}
