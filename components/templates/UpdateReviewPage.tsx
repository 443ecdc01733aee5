"use client";
import { Alert, Badge, Button, Group, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { IconAlertTriangle, IconInfoCircle } from "@tabler/icons-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { lazy, Suspense, useState } from "react";
import { lazySection } from "@/components/console/lazy";
import { ErrorState, FormError, LoadingState } from "@/components/console/states";
import { useUpdatePreview, useUpdateTemplate } from "@/lib/client/hooks/templates";
import { describeError } from "@/lib/client/problem";
import type { ScopeKind } from "@/lib/contracts/scope";
import { TemplateSubpageCrumbs } from "./Crumbs";
import { templatePath, updatedTemplatePath } from "./paths";

// Only for a template with local edits, and only once asked for: loaded then, not with the page.
// The diff (and the line-diff library under it) loads while the preview is asked for, not with the page.
const ContentDiff = lazySection(() => import("./ContentDiff").then((m) => m.ContentDiff), <LoadingState label="Loading the changes…" />);
const MergeUpdate = lazy(() => import("./MergeUpdate").then((m) => ({ default: m.MergeUpdate })));

/** How a template with local edits is updated: its edits merged with upstream's changes, or overwritten. */
type EditedUpdate = "overwrite" | "merge";

/**
 * Before updating a template from its source: the metadata that would change, a diff of
 * the installed and the latest manifest, and the update itself. A template edited here is
 * merged by default (its edits kept and upstream's changes taken), or, only when chosen,
 * overwritten (force).
 */
export function UpdateReviewPage({ scope, id }: { scope: ScopeKind; id: string }) {
  const router = useRouter();
  const preview = useUpdatePreview(scope, id);
  const update = useUpdateTemplate(scope);
  const [error, setError] = useState<string | null>(null);
  // Keeping the edits is the default; overwriting them only when chosen.
  const [how, setHow] = useState<EditedUpdate>("merge");
  // Set when saving a merge found its conflicts changed meanwhile: nothing was written, and the page shows the update as it now is.
  const [stale, setStale] = useState(false);

  const crumbs = <TemplateSubpageCrumbs scope={scope} id={id} current="Update" />;
  const heading = (
    <Title order={1} size="h2" mb="md">
      Review update of {id}
    </Title>
  );
  if (preview.isPending) {
    return (
      <>
        {crumbs}
        {heading}
        <LoadingState label="Fetching the latest version from the source…" />
      </>
    );
  }
  if (preview.isError) {
    return (
      <>
        {crumbs}
        {heading}
        <ErrorState title="Could not fetch the latest version" error={preview.error} onRetry={() => preview.refetch()} />
      </>
    );
  }

  const p = preview.data;
  const current = p.current;
  const force = p.locally_modified;
  const nothingToDo = !p.has_update && !p.locally_modified;
  const canMerge = p.locally_modified && p.has_update;
  const run = async () => {
    setError(null);
    try {
      // The review shows the template inside the preview, which carries no tag of the template's own.
      const result = await update.update(id, force ? "force" : "plain", undefined);
      router.push(updatedTemplatePath(scope, id, result.new_revision, p.latest_revision));
    } catch (e) {
      setError(describeError(e));
    }
  };

  return (
    <>
      {crumbs}
      {heading}
      <Stack gap="lg">
        <Group gap="sm">
          <Text size="sm">
            From source <strong>{current.source_name}</strong>: installed revision <code>{p.current_revision.slice(0, 8)}</code>, latest{" "}
            <code>{p.latest_revision.slice(0, 8)}</code>.
          </Text>
          {p.has_update ? (
            <Badge color="blue">Update available</Badge>
          ) : (
            <Badge color="green" variant="light">
              Same revision
            </Badge>
          )}
        </Group>
        {p.locally_modified && (
          <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} title="This template has local edits" data-testid="local-edits">
            It was changed here after it was installed.{" "}
            {canMerge
              ? "You can keep your edits and take the source's changes around them, or overwrite your edits with the source's version."
              : "Updating overwrites your edits with the source's version."}
          </Alert>
        )}
        {stale && (
          <Alert
            color="yellow"
            icon={<IconAlertTriangle aria-hidden />}
            title="The template or its source changed while you were choosing"
            data-testid="merge-stale"
          >
            Nothing was saved. What you see now is the update with the template and the source as they are now: check it, and your choices,
            then save again.
          </Alert>
        )}
        {canMerge && (
          <SegmentedControl
            aria-label="How to update"
            fullWidth
            value={how}
            onChange={(value) => setHow(value as EditedUpdate)}
            data={[
              { value: "merge", label: "Keep my edits" },
              { value: "overwrite", label: "Overwrite my edits" },
            ]}
          />
        )}
        {nothingToDo && (
          <Alert color="green" icon={<IconInfoCircle aria-hidden />} title="Already up to date">
            The installed template is the source&apos;s latest version; there is nothing to update.
          </Alert>
        )}
        {canMerge && how === "merge" ? (
          <>
            <Suspense fallback={<LoadingState label="Merging your edits with the source's changes…" />}>
              <MergeUpdate scope={scope} template={current} onStale={() => setStale(true)} />
            </Suspense>
            <Group justify="flex-end">
              <Button component={Link} href={templatePath(scope, id)} variant="default">
                Cancel
              </Button>
            </Group>
          </>
        ) : (
          <>
            <ContentDiff
              before={current}
              after={p.latest}
              beforeLabel="Installed"
              afterLabel="Latest"
              manifestLabels={[
                `installed (${p.current_revision.slice(0, 8)}${p.locally_modified ? ", edited" : ""})`,
                `latest (${p.latest_revision.slice(0, 8)})`,
              ]}
            />
            <FormError message={error} />
            <Group justify="flex-end">
              <Button component={Link} href={templatePath(scope, id)} variant="default">
                Cancel
              </Button>
              <Button color={force ? "red" : undefined} onClick={run} loading={update.isPending} disabled={nothingToDo}>
                {force ? "Overwrite local edits and update" : "Update template"}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </>
  );
}
