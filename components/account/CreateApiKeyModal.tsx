"use client";
import { Button, Group, Modal, Stack, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { FormError } from "@/components/console/states";
import { TokenOnce } from "@/components/console/TokenOnce";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useCreateApiKey, type KeyOwnerRef } from "@/lib/client/hooks/api-keys";

const FIELDS = ["description"] as const;

/** Creates a key; after creation the dialog shows its token, once, until closed. */
export function CreateApiKeyModal({ owner, ownerLabel, opened, onClose }: { owner: KeyOwnerRef; ownerLabel: string; opened: boolean; onClose: () => void }) {
  const create = useCreateApiKey(owner);
  const form = useFormSubmit(FIELDS);
  const [description, setDescription] = useState("");
  const [token, setToken] = useState<string | null>(null);

  const close = () => {
    setDescription("");
    setToken(null);
    form.reset();
    onClose();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await form.submit(() => create.create(description.trim() || null));
    if (created) setToken(created.token);
  };

  return (
    <Modal opened={opened} onClose={close} title={`New API key for ${ownerLabel}`} centered size="lg">
      {token ? (
        <Stack>
          <TokenOnce token={token} />
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <TextInput
              label="Description"
              description="What the key is for, to recognise it later (optional)."
              placeholder="CI pipeline"
              maxLength={200}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              error={form.fieldError("description")}
              data-autofocus
            />
            <FormError message={form.formError} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={form.busy}>
                Create key
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
