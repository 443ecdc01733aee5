"use client";
import { Alert, Badge, Button, Group, Stack, Text, Title } from "@mantine/core";
import { IconAlertTriangle, IconInfoCircle } from "@tabler/icons-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { SectionCard } from "@/components/console/SectionCard";
import { ErrorState, FormError, LoadingState } from "@/components/console/states";
import { useUpdatePreview, useUpdateTemplate } from "@/lib/client/hooks/templates";
import { describeError } from "@/lib/client/problem";
import type { ScopeKind } from "@/lib/contracts/scope";
import { TemplateSubpageCrumbs } from "./Crumbs";
import { formatJson } from "./json-text";
import { ManifestDiff } from "./ManifestDiff";
import { MetadataDiff } from "./MetadataDiff";
import { templatePath } from "./paths";

/**
 * Before updating a template from its source: the metadata that would change, a diff of
 * the installed and the latest manifest, and the update itself (forced when edited here).
 */
export function UpdateReviewPage({ scope, id }: { scope: ScopeKind; id: string }) {
  const router = useRouter();
  const preview = useUpdatePreview(scope, id);
  const update = useUpdateTemplate(scope);
  const [error, setError] = useState<string | null>(null);

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
  const run = async () => {
    setError(null);
    try {
      const result = await update.update(id, force);
      router.push(`${templatePath(scope, id)}?updated=${encodeURIComponent(result.new_revision)}`);
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
            It was changed here after it was installed, so the changes below include your edits being undone. Updating overwrites them with
            the source&apos;s version.
          </Alert>
        )}
        {nothingToDo && (
          <Alert color="green" icon={<IconInfoCircle aria-hidden />} title="Already up to date">
            The installed template is the source&apos;s latest version; there is nothing to update.
          </Alert>
        )}
        <SectionCard title="Details">
          <MetadataDiff before={current} after={p.latest} beforeLabel="Installed" afterLabel="Latest" />
        </SectionCard>
        <SectionCard title="Manifest">
          <ManifestDiff
            before={formatJson(current.manifest)}
            after={formatJson(p.latest.manifest)}
            beforeLabel={`installed (${p.current_revision.slice(0, 8)}${p.locally_modified ? ", edited" : ""})`}
            afterLabel={`latest (${p.latest_revision.slice(0, 8)})`}
          />
        </SectionCard>
        <FormError message={error} />
        <Group justify="flex-end">
          <Button component={Link} href={templatePath(scope, id)} variant="default">
            Cancel
          </Button>
          <Button color={force ? "red" : undefined} onClick={run} loading={update.isPending} disabled={nothingToDo}>
            {force ? "Overwrite local edits and update" : "Update template"}
          </Button>
        </Group>
      </Stack>
    </>
  );
}
