"use client";
import { PasswordInput, TextInput } from "@mantine/core";
import { FormModal } from "@/components/forms/FormModal";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useFormValues } from "@/components/forms/useFormValues";
import { type SourceData, useCreateSource } from "@/lib/client/hooks/sources";
import type { ScopeKind } from "@/lib/contracts/scope";
import { SourceDescriptionInput, SourceUrlInput } from "./SourceFields";

const FIELDS = ["url", "alias", "description", "auth_token"] as const;

interface Props {
  scope: ScopeKind;
  opened: boolean;
  onClose: () => void;
  /** The source just added: the panel then fetches its catalog once and shows the outcome in its row. */
  onAdded: (source: SourceData) => void;
}

/** Registers a source: its URL, an optional alias (else the name comes from the URL), description and token. */
export function AddSourceModal({ scope, opened, onClose, onAdded }: Props) {
  const create = useCreateSource(scope);
  const form = useFormSubmit(FIELDS);
  const fields = useFormValues({ url: "", alias: "", description: "", token: "" });

  const close = () => {
    fields.reset();
    onClose();
  };

  const submit = async () => {
    const { url, alias, description, token } = fields.values;
    const body = {
      url: url.trim(),
      alias: alias.trim() || undefined,
      description: description.trim() || undefined,
      auth_token: token || undefined,
    };
    const created = await form.submit(() => create.mutateAsync({ body }));
    if (created) {
      close();
      onAdded(created);
    }
  };

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title={scope === "server" ? "Add a server source" : "Add a personal source"}
      submitLabel="Add source"
      form={form}
      onSubmit={submit}
      dirty={fields.dirty}
    >
      <SourceUrlInput placeholder="https://github.com/acme/bank-templates" {...fields.text("url")} error={form.fieldError("url")} />
      <TextInput
        label="Alias"
        description="The source's name. Leave empty to use the first path segment of the URL."
        placeholder="acme"
        {...fields.text("alias")}
        error={form.fieldError("alias")}
      />
      <SourceDescriptionInput
        description="Optional. A note on what this source holds, shown with it."
        {...fields.text("description")}
        error={form.fieldError("description")}
      />
      <PasswordInput
        label="Access token"
        description="Optional. Sent only to this source's host; stored encrypted and never shown again."
        {...fields.text("token")}
        error={form.fieldError("auth_token")}
        autoComplete="off"
      />
    </FormModal>
  );
}
