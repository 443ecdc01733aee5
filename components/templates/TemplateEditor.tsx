"use client";
import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { IconCircleCheck, IconInfoCircle } from "@tabler/icons-react";
import { type FormEvent, useId, useMemo, useState } from "react";
import { SectionCard } from "@/components/console/SectionCard";
import { FormStatus } from "@/components/forms/FormStatus";
import { useLeaveGuard } from "@/components/forms/useLeaveGuard";
import { useManifestValidation } from "@/lib/client/hooks/manifests";
import { type TemplateData, usePatchTemplate, useTemplates } from "@/lib/client/hooks/templates";
import type { ScopeKind } from "@/lib/contracts/scope";
import { changedDetails, DETAIL_KEYS, type DetailsForm, detailsOf } from "./details-form";
import { blockedSentence, saveBlockers, useTemplateFormProblem } from "./form-problem";
import { formatJson } from "./json-text";
import { ManifestEditor } from "./ManifestEditor";
import { TemplateMetadataFields } from "./TemplateMetadataFields";

/** What the form changed, as a PATCH body; empty when nothing changed. */
function changesOf(t: TemplateData, meta: DetailsForm, manifest: unknown | undefined) {
  const body: Record<string, unknown> = changedDetails(t, meta);
  if (manifest !== undefined && JSON.stringify(manifest) !== JSON.stringify(t.manifest)) body.manifest = manifest;
  return body;
}

/** The metadata form and the manifest editor of one template, saved together with PATCH. */
export function TemplateEditor({ scope, template: t }: { scope: ScopeKind; template: TemplateData }) {
  const patch = usePatchTemplate(scope);
  const list = useTemplates(scope);
  const form = useTemplateFormProblem(DETAIL_KEYS);
  const [meta, setMeta] = useState(() => detailsOf(t));
  const [text, setText] = useState(() => formatJson(t.manifest));
  const [saved, setSaved] = useState(false);
  const validation = useManifestValidation(text);
  const categories = useMemo(
    () => [...new Set((list.data?.templates ?? []).flatMap((x) => (x.category ? [x.category] : [])))].sort(),
    [list.data],
  );

  const manifest = validation.parsed.ok ? validation.parsed.value : undefined;
  const changes = changesOf(t, meta, manifest);
  const dirty = Object.keys(changes).length > 0 || (!validation.parsed.ok && text !== formatJson(t.manifest));
  const blockers = saveBlockers(meta.name, validation.parsed, validation.check);
  const blocked = blockers.length > 0;
  const blockedId = useId();
  // Leaving (a link, Back, reload) with edits that differ from what was loaded or last saved asks first.
  useLeaveGuard(dirty);

  const edit =
    <T,>(setter: (v: T) => void) =>
    (v: T) => {
      setSaved(false);
      setter(v);
    };
  const discard = () => {
    setMeta(detailsOf(t));
    setText(formatJson(t.manifest));
    form.reset();
    setSaved(false);
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (blocked || !dirty) return;
    const updated = await form.submit(() => patch.patch(t.id, changes as never));
    if (updated) {
      setMeta(detailsOf(updated));
      setText(formatJson(updated.manifest));
      setSaved(true);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Edit template ${t.id}`}>
      <Stack gap="lg">
        <SectionCard title="Details">
          <TemplateMetadataFields value={meta} onChange={edit(setMeta)} fieldError={form.fieldError} categories={categories} requireName />
        </SectionCard>
        <SectionCard title="Manifest">
          <ManifestEditor
            value={text}
            onChange={edit(setText)}
            check={validation.check}
            previous={validation.previous}
            saveErrors={form.manifestErrors}
          />
        </SectionCard>
        {t.source_name && !t.locally_modified && dirty && (
          <Alert color="blue" icon={<IconInfoCircle aria-hidden />} p="sm">
            Saving marks this template as edited locally: a later update from {t.source_name} will ask before replacing your edits.
          </Alert>
        )}
        <FormStatus form={form} />
        {saved && !dirty && (
          <Group gap="xs" role="status">
            <IconCircleCheck size={18} color="var(--mantine-color-green-filled)" aria-hidden />
            <Text size="sm" c="green" fw={500}>
              Changes saved.
            </Text>
          </Group>
        )}
        <Group justify="flex-end" gap="sm">
          {dirty && blocked && (
            <Text size="sm" c="dimmed" id={blockedId} data-testid="save-blocked-reason" style={{ flex: "1 1 16rem" }} ta="right">
              {blockedSentence("Save", blockers)}
            </Text>
          )}
          <Button variant="default" onClick={discard} disabled={!dirty || form.busy}>
            Discard changes
          </Button>
          <Button
            type="submit"
            loading={form.busy}
            disabled={!dirty || blocked}
            aria-describedby={dirty && blocked ? blockedId : undefined}
          >
            Save changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
