"use client";
import { Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { FormStatus } from "@/components/forms/FormStatus";
import { useTemplateFormProblem } from "@/components/templates/form-problem";
import type { CatalogEntryData } from "@/lib/client/hooks/catalog";
import { type TemplateData, useInstallTemplate } from "@/lib/client/hooks/templates";
import type { ScopeKind } from "@/lib/contracts/scope";

const FIELDS = ["alias_id", "source_name"] as const;

/** Installs a catalog entry, under its own id or an alias; a taken or invalid id is shown at the alias. */
export function InstallModal({
  into,
  sourceName,
  sourceScope,
  entry,
  onClose,
  onInstalled,
}: {
  into: ScopeKind;
  sourceName: string;
  sourceScope: ScopeKind;
  entry: CatalogEntryData | null;
  onClose: () => void;
  onInstalled: (template: TemplateData) => void;
}) {
  const install = useInstallTemplate(into);
  const form = useTemplateFormProblem(FIELDS, "alias_id");
  const [alias, setAlias] = useState("");

  const close = () => {
    setAlias("");
    form.reset();
    onClose();
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!entry) return;
    const template = await form.submit(() =>
      install.mutateAsync({
        params: { template_id: entry.id },
        body: {
          source_name: sourceName,
          alias_id: alias.trim() || undefined,
          ...(into === "personal" ? { source_scope: sourceScope } : {}),
        },
      }),
    );
    if (template) {
      onInstalled(template);
      close();
    }
  };

  return (
    <Modal opened={entry !== null} onClose={close} title={`Install ${entry?.name ?? ""}`} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Text size="sm">
            Installs <strong>{entry?.id}</strong> from {sourceName} as {into === "server" ? "a server template" : "your template"}
            {entry?.installed_as.length ? `; it is already installed as ${entry.installed_as.join(", ")}, so give a new id` : ""}.
            {into === "personal" && entry?.installed_as_server.length
              ? ` The server has it as ${entry.installed_as_server.map((id) => `server/${id}`).join(", ")}; this installs your own copy.`
              : ""}
          </Text>
          <TextInput
            label="Alias ID"
            description={`Optional: the id to install under. Empty: ${entry?.id ?? "the catalog id"}.`}
            placeholder={entry ? `${entry.id}-2` : undefined}
            value={alias}
            onChange={(e) => setAlias(e.currentTarget.value)}
            error={form.fieldError("alias_id")}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
          />
          <FormStatus form={form} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={form.busy}>
              Install
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
