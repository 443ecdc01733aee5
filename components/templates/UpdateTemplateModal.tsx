"use client";
import { Alert, Anchor, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import Link from "next/link";
import { useState } from "react";
import { FormError } from "@/components/console/states";
import { entityTagOf } from "@/lib/client/entity-tag";
import { type TemplateData, type UpdateMode, useUpdateTemplate } from "@/lib/client/hooks/templates";
import { ApiProblem, describeError } from "@/lib/client/problem";
import type { ScopeKind } from "@/lib/contracts/scope";
import { templateUpdatePath } from "./paths";

/**
 * Confirms an update from the source. A template edited here is either overwritten
 * ("Overwrite local edits", force) or merged ("Keep my edits", merge: its edits kept and
 * upstream's changes taken; conflicts are resolved on the review page).
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
  const run = async (mode: UpdateMode) => {
    if (!template) return;
    setBusy(true);
    setError(null);
    try {
      await update.update(template.id, mode, entityTagOf(template));
      close();
    } catch (e) {
      // Edited meanwhile (409 without force): offer the overwrite and the merge.
      if (e instanceof ApiProblem && e.problemType === "local-edits") setMustForce(true);
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
            It was changed here after it was installed. &ldquo;Keep my edits&rdquo; takes the source&apos;s changes around them, unless both
            changed the same part (then review the changes to choose). &ldquo;Overwrite local edits&rdquo; replaces them with the
            source&apos;s version; the edited content stays in the template&apos;s versions, so you can roll back to it.
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
            <>
              <Button color="red" variant="light" onClick={() => run("force")} loading={busy}>
                Overwrite local edits
              </Button>
              <Button onClick={() => run("merge")} loading={busy}>
                Keep my edits
              </Button>
            </>
          ) : (
            <Button onClick={() => run("plain")} loading={busy}>
              Update
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
