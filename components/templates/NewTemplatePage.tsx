"use client";
import { Button, FileButton, Group, Stack, Text, TextInput } from "@mantine/core";
import { IconUpload } from "@tabler/icons-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useId, useMemo, useState } from "react";
import { lazySection } from "@/components/console/lazy";
import { PageHeader } from "@/components/console/PageHeader";
import { SectionCard } from "@/components/console/SectionCard";
import { JsonEditor } from "@/components/editor/JsonEditor";
import { FormStatus } from "@/components/forms/FormStatus";
import { useLeaveGuard } from "@/components/forms/useLeaveGuard";
import { useManifestValidation } from "@/lib/client/hooks/manifests";
import { useCreateTemplate, useTemplates } from "@/lib/client/hooks/templates";
import type { ScopeKind } from "@/lib/contracts/scope";
import { Crumbs } from "./Crumbs";
import { createdDetails, DETAIL_KEYS, type DetailsForm, emptyDetails, fillFromEntry } from "./details-form";
import { blockedSentence, saveBlockers, useTemplateFormProblem } from "./form-problem";
import { formatJson } from "./json-text";
import type { ManifestEditorProps } from "./ManifestEditor";
import { templatePath, templatesPath } from "./paths";
import { TemplateMetadataFields } from "./TemplateMetadataFields";

const FIELDS = ["id", ...DETAIL_KEYS] as const;

// The manifest editor (live checks, the problem list) is ~5 kB gzipped that would take this
// page's first load over its budget: it loads beside the page, and until it is there the
// bare JSON editor holds the text (the server renders the whole editor, as always).
const ManifestEditor = lazySection<ManifestEditorProps>(
  () => import("./ManifestEditor").then((m) => m.ManifestEditor),
  ({ value, onChange, label = "Manifest (JSON)" }) => (
    <JsonEditor value={value} onChange={onChange} label={label} minHeight="18em" maxHeight="42em" testId="manifest-editor" />
  ),
);

const EXAMPLE = {
  version: "1",
  bank: { retain_mission: "Keep decisions and their reasons.", disposition_skepticism: 3 },
  mental_models: [{ id: "open-questions", name: "Open questions", source_query: "What is still open?" }],
  directives: [{ name: "Cite sources", content: "Name the document each fact comes from.", priority: 5 }],
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A new template from a pasted or uploaded manifest, checked live before it is created. */
export function NewTemplatePage({ scope }: { scope: ScopeKind }) {
  const router = useRouter();
  const create = useCreateTemplate(scope);
  const list = useTemplates(scope);
  const form = useTemplateFormProblem(FIELDS, "id");
  const [id, setId] = useState("");
  const [meta, setMeta] = useState<DetailsForm>(emptyDetails);
  const [text, setText] = useState("");
  const [fileNote, setFileNote] = useState<string | null>(null);
  const validation = useManifestValidation(text);
  const categories = useMemo(
    () => [...new Set((list.data?.templates ?? []).flatMap((x) => (x.category ? [x.category] : [])))].sort(),
    [list.data],
  );

  /** A manifest file, or a catalog entry ({id, name, …, manifest}) whose details fill the empty fields. */
  const upload = async (file: File | null) => {
    if (!file) return;
    const content = await file.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch {
      setText(content);
      setFileNote(`Loaded ${file.name}.`);
      return;
    }
    if (isRecord(parsed) && isRecord(parsed.manifest)) {
      const entry = parsed;
      if (!id && typeof entry.id === "string") setId(entry.id);
      setMeta((m) => fillFromEntry(m, entry));
      setText(formatJson(entry.manifest));
      setFileNote(`Loaded the catalog entry in ${file.name}: its manifest, and its details where the form was empty.`);
    } else {
      setText(formatJson(parsed));
      setFileNote(`Loaded ${file.name}.`);
    }
  };

  const blockers = [...(id.trim() ? [] : ["the template needs an ID"]), ...saveBlockers(meta.name, validation.parsed, validation.check)];
  const blocked = blockers.length > 0;
  const blockedId = useId();
  // Typed or uploaded but not created yet: leaving asks first. (Creating navigates with the
  // router, which the guard does not stop.)
  useLeaveGuard(id !== "" || JSON.stringify(meta) !== JSON.stringify(emptyDetails) || text !== "");

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!validation.parsed.ok) return;
    const manifest = validation.parsed.value;
    const created = await form.submit(() =>
      create.mutateAsync({
        body: {
          id: id.trim(),
          ...createdDetails(meta),
          manifest: manifest as never,
        },
      }),
    );
    if (created) router.push(templatePath(scope, created.id));
  };

  return (
    <>
      <Crumbs trail={[{ href: templatesPath(scope), label: scope === "server" ? "Server templates" : "Templates" }]} current="New" />
      <PageHeader
        title={scope === "server" ? "New server template" : "New template"}
        description="Paste a bank-template manifest or upload a JSON file; it is checked as you go, and saved only when it is valid."
      />
      <form onSubmit={onSubmit} noValidate aria-label="New template">
        <Stack gap="lg">
          <SectionCard title="Details">
            <Stack gap="sm">
              <TextInput
                label="ID"
                description="1-128 characters of letters, digits, '.', '_' or '-', starting with a letter or digit. It cannot be changed later."
                required
                value={id}
                onChange={(e) => setId(e.currentTarget.value)}
                error={form.fieldError("id")}
                autoComplete="off"
                spellCheck={false}
                data-autofocus
              />
              <TemplateMetadataFields value={meta} onChange={setMeta} fieldError={form.fieldError} categories={categories} />
            </Stack>
          </SectionCard>
          <SectionCard title="Manifest">
            <ManifestEditor
              value={text}
              onChange={setText}
              check={validation.check}
              previous={validation.previous}
              saveErrors={form.manifestErrors}
              actions={
                <>
                  <FileButton onChange={upload} accept="application/json,.json">
                    {(props) => (
                      <Button {...props} size="xs" variant="default" leftSection={<IconUpload size={14} aria-hidden />}>
                        Upload JSON file
                      </Button>
                    )}
                  </FileButton>
                  <Button size="xs" variant="default" onClick={() => setText(formatJson(EXAMPLE))} disabled={text.trim() !== ""}>
                    Start from an example
                  </Button>
                </>
              }
            />
            {fileNote && (
              <Text size="sm" c="dimmed" mt="xs" role="status">
                {fileNote}
              </Text>
            )}
          </SectionCard>
          <FormStatus form={form} />
          <Group justify="flex-end" gap="sm">
            {blocked && (
              <Text size="sm" c="dimmed" id={blockedId} data-testid="save-blocked-reason" style={{ flex: "1 1 16rem" }} ta="right">
                {blockedSentence("Create", blockers)}
              </Text>
            )}
            <Button component={Link} href={templatesPath(scope)} variant="default">
              Cancel
            </Button>
            <Button type="submit" loading={form.busy} disabled={blocked} aria-describedby={blocked ? blockedId : undefined}>
              Create template
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
