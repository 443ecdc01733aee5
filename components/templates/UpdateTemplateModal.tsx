"use client";
import { Alert, Anchor, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import Link from "next/link";
import { useState } from "react";
import { FormError } from "@/components/console/states";
import { type TemplateData, useUpdateTemplate } from "@/lib/client/hooks/templates";
import { ApiProblem, describeError } from "@/lib/client/problem";
import type { ScopeKind } from "@/lib/contracts/scope";
import { templateUpdatePath } from "./paths";

/**
 * Confirms an update from the source. A template edited here cannot be updated without
 * replacing the edits, so then the dialog says so and offers "Overwrite local edits" (force).
 */
export function UpdateTemplateModal({
  scope,
  template,
  onClose,
}: {
  scope: ScopeKind;
  template: TemplateData | null;
  onClose: () => void;
}) {
  const update = useUpdateTemplate(scope);
  const [error, setError] = useState<string | null>(null);
  const [mustForce, setMustForce] = useState(false);
  const [busy, setBusy] = useState(false);
  const edited = (template?.locally_modified ?? false) || mustForce;

  const close = () => {
    setError(null);
    setMustForce(false);
    onClose();
  };
  const run = async (force: boolean) => {
    if (!template) return;
    setBusy(true);
    setError(null);
    try {
      await update.update(template.id, force);
      close();
    } catch (e) {
      // Edited meanwhile (409 without force): offer the overwrite.
      if (e instanceof ApiProblem && e.problemType === "local-edits" && !force) setMustForce(true);
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  const latest = template?.latest_revision?.slice(0, 8);
  return (
    <Modal opened={template !== null} onClose={close} title={`Update template ${template?.id ?? ""}?`} centered>
      <Stack>
        <Text size="sm">
          Replaces <strong>{template?.id}</strong> with{" "}
          {latest ? (
            <>
              revision <code>{latest}</code>
            </>
          ) : (
            "the latest version"
          )}{" "}
          from source <strong>{template?.source_name}</strong>: its name, description, category, tags, integrations and manifest.
        </Text>
        {edited && (
          <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} title="This template has local edits">
            It was changed here after it was installed. Updating replaces those edits with the source&apos;s version; the edited content
            stays in the template&apos;s versions, so you can roll back to it.
          </Alert>
        )}
        {template && (
          <Anchor component={Link} href={templateUpdatePath(scope, template.id)} size="sm">
            Review the changes first
          </Anchor>
        )}
        <FormError message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          {edited ? (
            <Button color="red" onClick={() => run(true)} loading={busy}>
              Overwrite local edits
            </Button>
          ) : (
            <Button onClick={() => run(false)} loading={busy}>
              Update
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
