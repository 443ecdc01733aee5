"use client";
import { Alert, Button, Group, List, Stack, Text } from "@mantine/core";
import { IconAlertTriangle, IconGitMerge } from "@tabler/icons-react";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { SectionCard } from "@/components/console/SectionCard";
import { ErrorState, FormError, LoadingState } from "@/components/console/states";
import { entityTagOf } from "@/lib/client/entity-tag";
import { useManifestValidation } from "@/lib/client/hooks/manifests";
import { isStaleMerge, type TemplateData, useUpdatePreview, useUpdateTemplate } from "@/lib/client/hooks/templates";
import { ApiProblem, describeError } from "@/lib/client/problem";
import type { FieldError } from "@/lib/contracts/problem-schema";
import type { ScopeKind } from "@/lib/contracts/scope";
import { contentOf, type TemplateContent } from "@/lib/contracts/templates/content-fields";
import { mergeTemplate, resolutionList } from "@/lib/contracts/templates/merge";
import { ContentDiff } from "./ContentDiff";
import { formatJson } from "./json-text";
import { MergeConflicts } from "./MergeConflicts";
import { type MergeChoice, resolutionsOf } from "./merge-choices";
import { updatedTemplatePath } from "./paths";

type MergePreview = NonNullable<NonNullable<ReturnType<typeof useUpdatePreview>["data"]>["merge"]>;

/** The source's latest content and its revision: what the merge was reviewed against. */
interface Upstream {
  revision: string;
  content: TemplateContent;
}

/**
 * For a template with local edits and an update waiting: keep the edits and take upstream's
 * changes (CONTRACT §16's update?merge=true). Without conflicts, the merged result beside the
 * template now and one button; with conflicts, each path's three sides and a choice, then
 * "Save merged", one update that carries the choices (CONTRACT §21's resolutions).
 */
export function MergeUpdate({
  scope,
  template,
  onStale,
}: {
  scope: ScopeKind;
  template: TemplateData;
  /** A save found the conflicts changed meanwhile: nothing was written, and the previews are being fetched again. */
  onStale: () => void;
}) {
  const preview = useUpdatePreview(scope, template.id, { merge: true });
  if (preview.isPending) return <LoadingState label="Merging your edits with the source's changes…" />;
  if (preview.isError) {
    if (preview.error instanceof ApiProblem && preview.error.problemType === "merge-base-missing") {
      return (
        <Alert color="yellow" icon={<IconGitMerge aria-hidden />} title="Your edits cannot be merged" data-testid="merge-unavailable">
          {describeError(preview.error)}
        </Alert>
      );
    }
    return <ErrorState title="Could not merge with the source" error={preview.error} onRetry={() => preview.refetch()} />;
  }
  const merge = preview.data.merge!;
  const upstream = { revision: preview.data.latest_revision, content: preview.data.latest };
  return merge.conflicts.length === 0 ? (
    <CleanMerge scope={scope} template={template} merge={merge} upstream={upstream} />
  ) : (
    <ResolveConflicts scope={scope} template={template} merge={merge} upstream={upstream} onStale={onStale} />
  );
}

/** The merge has no conflicts: what it writes, compared with the template now, and the update itself. */
function CleanMerge({
  scope,
  template,
  merge,
  upstream,
}: {
  scope: ScopeKind;
  template: TemplateData;
  merge: MergePreview;
  upstream: Upstream;
}) {
  const router = useRouter();
  const update = useUpdateTemplate(scope);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setError(null);
    try {
      const result = await update.update(template.id, "merge", entityTagOf(template));
      router.push(updatedTemplatePath(scope, template.id, result.new_revision, upstream.revision));
    } catch (e) {
      setError(describeError(e));
    }
  };
  return (
    <SectionCard title="Keep my edits and take upstream's" data-testid="merge-clean">
      <Stack gap="md">
        <Text size="sm">
          Your edits and the source&apos;s changes touch different parts of the template, so both can be kept. Below is what the template
          would become, compared with how it is now{merge.locally_modified ? "" : " (the same as the source's latest version)"}.
        </Text>
        <ContentDiff
          before={template}
          after={merge.merged}
          beforeLabel="Now"
          afterLabel="Merged"
          titles={["Merged details", "Merged manifest"]}
        />
        <FormError message={error} />
        <Group justify="flex-end">
          <Button leftSection={<IconGitMerge size={16} aria-hidden />} onClick={run} loading={update.isPending}>
            Keep my edits and take upstream&apos;s
          </Button>
        </Group>
      </Stack>
    </SectionCard>
  );
}

/** What is wrong with the manifest the choices make, as the validator or a refused save said; empty when nothing is known to be. */
function useMergedManifestErrors(manifest: Record<string, unknown> | null, saveErrors: FieldError[]): FieldError[] {
  // Checked as the choices change, as the editor checks a manifest being typed.
  const { check } = useManifestValidation(manifest ? formatJson(manifest) : "");
  if (check.state === "checked" && !check.valid) return check.errors;
  return saveErrors;
}

/** Each conflicting path resolved by hand, then saved as one update carrying the resolutions. */
function ResolveConflicts({
  scope,
  template,
  merge,
  upstream,
  onStale,
}: {
  scope: ScopeKind;
  template: TemplateData;
  merge: MergePreview;
  upstream: Upstream;
  onStale: () => void;
}) {
  const router = useRouter();
  const update = useUpdateTemplate(scope);
  const [choices, setChoices] = useState<Record<string, MergeChoice>>({});
  const [error, setError] = useState<string | null>(null);
  const [saveErrors, setSaveErrors] = useState<FieldError[]>([]);
  const local = useMemo(() => contentOf(template), [template]);
  const chosen = merge.conflicts.filter((c) => choices[c.path]).length;
  const resolutions = useMemo(() => resolutionsOf(merge.conflicts, choices), [merge.conflicts, choices]);
  // The same merge the server makes, with each conflict resolved as chosen.
  const resolved = useMemo(
    () => (resolutions ? mergeTemplate(merge.base, local, upstream.content, resolutions).merged : null),
    [resolutions, merge.base, local, upstream.content],
  );
  const manifestErrors = useMergedManifestErrors(resolved?.manifest ?? null, saveErrors);

  const choose = (path: string, choice: MergeChoice) => {
    setSaveErrors([]);
    setChoices((current) => ({ ...current, [path]: choice }));
  };
  const run = async () => {
    if (!resolutions) return;
    setError(null);
    try {
      const result = await update.update(template.id, "merge", entityTagOf(template), resolutionList(resolutions));
      router.push(updatedTemplatePath(scope, template.id, result.new_revision, upstream.revision));
    } catch (e) {
      if (isStaleMerge(e)) onStale();
      else if (e instanceof ApiProblem && e.problemType === "merge-invalid") setSaveErrors(e.errors);
      else setError(describeError(e));
    }
  };

  return (
    <SectionCard title="Keep my edits and take upstream's" data-testid="merge-conflicts">
      <Stack gap="md">
        <Text size="sm">
          You and the source changed {merge.conflicts.length === 1 ? "one part" : `${merge.conflicts.length} parts`} of the template
          differently. Everything else merges on its own; for each part below keep mine, upstream&apos;s, or a value you edit ({chosen} of{" "}
          {merge.conflicts.length} chosen).
        </Text>
        <MergeConflicts
          conflicts={merge.conflicts}
          choices={choices}
          onChoose={choose}
          local={local}
          upstream={upstream.content}
          errors={resolved ? manifestErrors : []}
        />
        {resolved && (
          <ContentDiff
            before={template}
            after={resolved}
            beforeLabel="Now"
            afterLabel="Merged"
            titles={["Merged details", "Merged manifest"]}
          />
        )}
        {resolved && manifestErrors.length > 0 && (
          <Alert
            color="red"
            icon={<IconAlertTriangle aria-hidden />}
            title="The merged manifest would not be valid"
            data-testid="merge-invalid"
          >
            <List size="sm">
              {manifestErrors.map((e) => (
                <List.Item key={`${e.path} ${e.message}`}>
                  <code>{e.path}</code> {e.message}
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
        <FormError message={error} />
        <Group justify="flex-end">
          <Button
            leftSection={<IconGitMerge size={16} aria-hidden />}
            onClick={run}
            loading={update.isPending}
            disabled={!resolutions || manifestErrors.length > 0}
          >
            Save merged
          </Button>
        </Group>
      </Stack>
    </SectionCard>
  );
}
