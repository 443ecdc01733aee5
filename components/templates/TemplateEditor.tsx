"use client";
import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { IconCircleCheck, IconInfoCircle } from "@tabler/icons-react";
import { type FormEvent, useId, useMemo, useState } from "react";
import { SectionCard } from "@/components/console/SectionCard";
import { EditConflict } from "@/components/forms/EditConflict";
import { type ChangeAuthor, isEditConflict } from "@/components/forms/edit-conflict";
import { FormStatus } from "@/components/forms/FormStatus";
import { useLeaveGuard } from "@/components/forms/useLeaveGuard";
import { entityTagOf } from "@/lib/client/entity-tag";
import { useManifestValidation } from "@/lib/client/hooks/manifests";
import { type TemplateData, usePatchTemplate, useReadTemplateNow, useTemplates } from "@/lib/client/hooks/templates";
import type { ScopeKind } from "@/lib/contracts/scope";
import { contentOf, type TemplateContent } from "@/lib/contracts/templates/content-fields";
import { sameJson } from "@/lib/shared/same-json";
import { ContentDiff } from "./ContentDiff";
import { changedDetails, DETAIL_KEYS, type DetailsForm, detailsOf } from "./details-form";
import { blockedSentence, saveBlockers, useTemplateFormProblem } from "./form-problem";
import { formatJson } from "./json-text";
import { ManifestEditor } from "./ManifestEditor";
import { conflictTitle } from "./merge-choices";
import { TemplateMetadataFields } from "./TemplateMetadataFields";

/** What the form changed, as a PATCH body; empty when nothing changed. */
function changesOf(t: TemplateData, meta: DetailsForm, manifest: unknown | undefined) {
  const body: Record<string, unknown> = changedDetails(t, meta);
  if (manifest !== undefined && JSON.stringify(manifest) !== JSON.stringify(t.manifest)) body.manifest = manifest;
  return body;
}

/** Whether two versions of a template hold the same content: what the form edits, and a save writes. */
const sameContent = (a: TemplateData, b: TemplateData) => sameJson(contentOf(a), contentOf(b));

/** A save refused because the template changed meanwhile: the template now (null: deleted), and who changed it (none named: unknown). */
interface Conflict {
  theirs: TemplateData | null;
  authors: ChangeAuthor[];
}

/**
 * The metadata form and the manifest editor of one template, saved together with PATCH, made
 * against the version the form was loaded from (If-Match): a template changed meanwhile by
 * someone else shows who changed what, to merge onto, overwrite or take instead.
 */
export function TemplateEditor({ scope, template: current }: { scope: ScopeKind; template: TemplateData }) {
  // The version the form was made from: the page's until a save, a conflict's choice or (with
  // nothing typed) a newer one the page read; a save sends its ETag as its condition.
  const [t, setShown] = useState(current);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const readNow = useReadTemplateNow(scope);
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
  if (conflict === null && !form.busy && current !== t && entityTagOf(current) !== entityTagOf(t)) {
    if (!dirty) {
      // With nothing typed, a newer version the page read (another tab's save, a rollback) is shown.
      setShown(current);
      setMeta(detailsOf(current));
      setText(formatJson(current.manifest));
    } else if (sameContent(current, t)) {
      // A newer version that changed nothing the form edits (the update check this page ran on
      // opening): what is typed applies to it alike, so it becomes the version a save is made against.
      setShown(current);
    }
  }
  /** The content the form holds: the details typed, and the manifest (as loaded while what is typed does not parse). */
  const mine: TemplateContent = {
    ...contentOf(t),
    ...changedDetails(t, meta),
    manifest: (manifest ?? t.manifest) as TemplateContent["manifest"],
  };

  const edit =
    <T,>(setter: (v: T) => void) =>
    (v: T) => {
      setSaved(false);
      setter(v);
    };
  /** The form holds `content`, made from `template`'s version. */
  const load = (template: TemplateData, content: TemplateContent = template) => {
    setShown(template);
    setConflict(null);
    setMeta(detailsOf(content));
    setText(formatJson(content.manifest));
    form.reset();
  };
  const discard = () => {
    load(t);
    setSaved(false);
  };

  /** The template changed meanwhile: the form keeps what was typed, and shows the template as read now and who changed it. */
  const showConflict = ({ now, versions }: Awaited<ReturnType<typeof readNow>>) => {
    // The versions written since the one the form was loaded from.
    const since = (versions ?? []).filter((v) => v.created_at > t.updated_at);
    setConflict({ theirs: now, authors: since.map((v) => ({ actor: v.actor, at: v.created_at })) });
  };
  /** Saves the form's changes against `base` (the version they are made from; `version` its ETag). */
  const send = async (base: TemplateData, version: string | undefined) => {
    const body = changesOf(base, meta, manifest);
    /** The template written, or null when it is no longer at `condition`. */
    const save = (condition: string | undefined) =>
      patch.patch(t.id, body as never, condition).catch((error: unknown) => {
        if (isEditConflict(error)) return null;
        throw error;
      });
    const updated = await form.submit(async () => {
      let written = await save(version);
      let refused = written ? null : await readNow(t.id);
      if (refused?.now && sameContent(refused.now, base)) {
        // Changed meanwhile only where the form does not edit (an update check that landed just
        // before the save): nothing to decide, so it is saved against that version.
        written = await save(entityTagOf(refused.now));
        refused = written ? null : await readNow(t.id);
      }
      if (refused) showConflict(refused);
      return written ?? undefined;
    });
    if (updated) {
      load(updated);
      setSaved(true);
    }
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (blocked || !dirty) return;
    await send(t, entityTagOf(t));
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
        {conflict && (
          <EditConflict
            what="template"
            authors={conflict.authors}
            base={contentOf(t)}
            mine={mine}
            theirs={conflict.theirs && contentOf(conflict.theirs)}
            changes={
              conflict.theirs && (
                <ContentDiff
                  before={t}
                  after={conflict.theirs}
                  beforeLabel="When you opened it"
                  afterLabel="Now"
                  titles={["Their details", "Their manifest"]}
                />
              )
            }
            titleOf={(c) => conflictTitle(c, mine, conflict.theirs ?? mine)}
            onMerge={(merged) => {
              load(conflict.theirs!, merged);
              setSaved(false);
            }}
            // A deleted template cannot be written again by a save: only discarding is left.
            onOverwrite={conflict.theirs ? () => void send(conflict.theirs!, entityTagOf(conflict.theirs)) : undefined}
            onDiscard={() => (conflict.theirs ? load(conflict.theirs) : setConflict(null))}
            busy={form.busy}
          />
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
