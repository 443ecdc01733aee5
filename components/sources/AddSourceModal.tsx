"use client";
import { Button, Group, Modal, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { FormError } from "@/components/console/states";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useCreateSource } from "@/lib/client/hooks/sources";
import type { ScopeKind } from "@/lib/identity/scope";

const FIELDS = ["url", "alias", "auth_token"] as const;

/** Registers a source: its URL, an optional alias (else the name comes from the URL) and token. */
export function AddSourceModal({ scope, opened, onClose }: { scope: ScopeKind; opened: boolean; onClose: () => void }) {
  const create = useCreateSource(scope);
  const form = useFormSubmit(FIELDS);
  const [url, setUrl] = useState("");
  const [alias, setAlias] = useState("");
  const [token, setToken] = useState("");

  const close = () => {
    setUrl("");
    setAlias("");
    setToken("");
    form.reset();
    onClose();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await form.submit(() =>
      create.mutateAsync({ body: { url: url.trim(), alias: alias.trim() || undefined, auth_token: token || undefined } }),
    );
    if (created) close();
  };

  return (
    <Modal opened={opened} onClose={close} title={scope === "server" ? "Add a server source" : "Add a personal source"} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <TextInput
            label="URL"
            description="The marketplace: a Git repository (GitHub, GitLab) or a catalog URL ending in .json."
            placeholder="https://github.com/acme/bank-templates"
            required
            type="url"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={form.fieldError("url")}
            data-autofocus
          />
          <TextInput
            label="Alias"
            description="The source's name. Leave empty to use the first path segment of the URL."
            placeholder="acme"
            value={alias}
            onChange={(e) => setAlias(e.currentTarget.value)}
            error={form.fieldError("alias")}
          />
          <PasswordInput
            label="Access token"
            description="Optional. Sent only to this source's host; stored encrypted and never shown again."
            value={token}
            onChange={(e) => setToken(e.currentTarget.value)}
            error={form.fieldError("auth_token")}
            autoComplete="off"
          />
          <FormError message={form.formError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={form.busy}>
              Add source
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
