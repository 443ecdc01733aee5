"use client";
import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { IconGitMerge } from "@tabler/icons-react";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { SectionCard } from "@/components/console/SectionCard";
import { ErrorState, FormError, LoadingState } from "@/components/console/states";
import { type TemplateData, UpstreamMoved, useSaveResolvedMerge, useUpdatePreview, useUpdateTemplate } from "@/lib/client/hooks/templates";
import { ApiProblem, describeError } from "@/lib/client/problem";
import type { ScopeKind } from "@/lib/contracts/scope";
import { contentOf, type TemplateContent } from "@/lib/contracts/templates/content-fields";
import { type MergeResolutions, mergeTemplate, sameContent } from "@/lib/contracts/templates/merge";
import { ContentDiff } from "./ContentDiff";
import { MergeConflicts } from "./MergeConflicts";
import { templatePath } from "./paths";

type MergePreview = NonNullable<NonNullable<ReturnType<typeof useUpdatePreview>["data"]>["merge"]>;

/**
 * For a template with local edits and an update waiting: keep the edits and take upstream's
 * changes (CONTRACT §16's update?merge=true). Without conflicts, the merged result beside the
 * template now and one button; with conflicts, each path's three sides and a choice, then
 * "Save merged".
 */
export function MergeUpdate({
  scope,
  template,
  onUpstreamMoved,
}: {
  scope: ScopeKind;
  template: TemplateData;
  /** Saving found the source at another revision than the one reviewed: what to tell (the page reloads on its own). */
  onUpstreamMoved: (message: string) => void;
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
    <CleanMerge scope={scope} template={template} merge={merge} />
  ) : (
    <ResolveConflicts scope={scope} template={template} merge={merge} upstream={upstream} onUpstreamMoved={onUpstreamMoved} />
  );
}

/** The merge has no conflicts: what it writes, compared with the template now, and the update itself. */
function CleanMerge({ scope, template, merge }: { scope: ScopeKind; template: TemplateData; merge: MergePreview }) {
  const router = useRouter();
  const update = useUpdateTemplate(scope);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setError(null);
    try {
      const result = await update.update(template.id, "merge");
      router.push(`${templatePath(scope, template.id)}?updated=${encodeURIComponent(result.new_revision)}`);
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

/** Each conflicting path resolved by hand, then saved as an update that takes upstream plus a PATCH of the choices. */
function ResolveConflicts({
  scope,
  template,
  merge,
  upstream,
  onUpstreamMoved,
}: {
  scope: ScopeKind;
  template: TemplateData;
  merge: MergePreview;
  upstream: { revision: string; content: TemplateContent };
  onUpstreamMoved: (message: string) => void;
}) {
  const router = useRouter();
  const save = useSaveResolvedMerge(scope);
  const [picks, setPicks] = useState<MergeResolutions>({});
  const [error, setError] = useState<string | null>(null);
  const chosen = merge.conflicts.filter((c) => picks[c.path]).length;
  const allChosen = chosen === merge.conflicts.length;
  // The same merge the server made, with each conflict taking the side picked for it.
  const resolved = useMemo(
    () => (allChosen ? mergeTemplate(merge.base, contentOf(template), upstream.content, picks).merged : null),
    [allChosen, merge.base, template, upstream.content, picks],
  );

  const run = async () => {
    if (!resolved) return;
    setError(null);
    try {
      // All choices upstream's (and the rest merged to it): the update alone writes that, without local edits.
      await save.save(template.id, upstream.revision, sameContent(resolved, upstream.content) ? null : resolved);
      router.push(`${templatePath(scope, template.id)}?updated=${encodeURIComponent(upstream.revision)}`);
    } catch (e) {
      if (e instanceof UpstreamMoved) onUpstreamMoved(e.message);
      else setError(describeError(e));
    }
  };

  return (
    <SectionCard title="Keep my edits and take upstream's" data-testid="merge-conflicts">
      <Stack gap="md">
        <Text size="sm">
          You and the source changed {merge.conflicts.length === 1 ? "one part" : `${merge.conflicts.length} parts`} of the template
          differently. Everything else merges on its own; for each part below choose which version to keep ({chosen} of{" "}
          {merge.conflicts.length} chosen).
        </Text>
        <MergeConflicts
          conflicts={merge.conflicts}
          picks={picks}
          onPick={(path, side) => setPicks((p) => ({ ...p, [path]: { take: side } }))}
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
        <FormError message={error} />
        <Group justify="flex-end">
          <Button leftSection={<IconGitMerge size={16} aria-hidden />} onClick={run} loading={save.isPending} disabled={!allChosen}>
            Save merged
          </Button>
        </Group>
      </Stack>
    </SectionCard>
  );
}
