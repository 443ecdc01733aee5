"use client";
import { SectionCard } from "@/components/console/SectionCard";
import { Alert, Anchor, Badge, Button, Group, Stack, Text, Title } from "@mantine/core";
import { IconAlertTriangle, IconCircleCheck, IconGitCompare, IconRefresh, IconTrash } from "@tabler/icons-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmModal } from "@/components/console/ConfirmModal";
import { lazySection } from "@/components/console/lazy";
import { ErrorState, LoadingState } from "@/components/console/states";
import { formatTimestamp } from "@/lib/client/format";
import { describeError } from "@/lib/client/problem";
import { useCheckUpdate, useRemoveTemplate, useTemplate, type TemplateData } from "@/lib/client/hooks/templates";
import type { ScopeKind } from "@/lib/identity/scope";
import { templatesPath, templateUpdatePath } from "./paths";
import { Crumbs } from "./Crumbs";

// The editor shows once the template arrived; its code loads alongside it.
const TemplateEditor = lazySection(() => import("./TemplateEditor").then((m) => m.TemplateEditor), <LoadingState label="Loading the editor…" />);

/** One template: what it is, whether its source has news, and the editor. */
export function TemplateDetailPage({ scope, id, updatedTo }: { scope: ScopeKind; id: string; updatedTo?: string }) {
  const template = useTemplate(scope, id);
  const crumbs = <Crumbs trail={[{ href: templatesPath(scope), label: scope === "server" ? "Server templates" : "Templates" }]} current={id} />;
  if (template.isPending) {
    return (
      <>
        {crumbs}
        <LoadingState label={`Loading template ${id}…`} />
      </>
    );
  }
  if (template.isError) {
    const missing = template.error.status === 404;
    return (
      <>
        {crumbs}
        <Title order={1} size="h2" mb="md">
          {missing ? "Template not found" : `Template ${id}`}
        </Title>
        {missing ? (
          <Alert color="gray" title={`There is no ${scope === "server" ? "server " : ""}template ${id}`}>
            It may have been deleted.{" "}
            <Anchor component={Link} href={templatesPath(scope)}>
              Back to the templates
            </Anchor>
          </Alert>
        ) : (
          <ErrorState title="Could not load the template" error={template.error} onRetry={() => template.refetch()} />
        )}
      </>
    );
  }
  return (
    <>
      {crumbs}
      <Loaded scope={scope} template={template.data} updatedTo={updatedTo} />
    </>
  );
}

function Loaded({ scope, template: t, updatedTo }: { scope: ScopeKind; template: TemplateData; updatedTo?: string }) {
  const router = useRouter();
  const remove = useRemoveTemplate(scope);
  const [deleting, setDeleting] = useState(false);
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ flex: "1 1 320px" }}>
          <Title order={1} size="h2">
            {t.name}
          </Title>
          <Group gap={6}>
            <Badge variant="default" tt="none" ff="monospace">
              {t.id}
            </Badge>
            <Badge variant="light" color={scope === "server" ? "grape" : "gray"}>
              {scope === "server" ? "Server template" : "Personal template"}
            </Badge>
            {t.locally_modified && (
              <Badge color="yellow" variant="light">
                Edited locally
              </Badge>
            )}
          </Group>
        </Stack>
        <Button variant="subtle" color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(true)}>
          Delete template
        </Button>
      </Group>
      {updatedTo && (
        <Alert color="green" icon={<IconCircleCheck aria-hidden />} role="status" title="Updated">
          {t.id} now holds revision <code>{updatedTo.slice(0, 8)}</code> from source {t.source_name}.
        </Alert>
      )}
      <SourceCard scope={scope} template={t} />
      <TemplateEditor scope={scope} template={t} />
      <ConfirmModal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title="Delete template?"
        confirmLabel="Delete template"
        onConfirm={async () => {
          await remove.remove(t.id);
          router.push(templatesPath(scope));
        }}
      >
        Delete <strong>{t.id}</strong> ({t.name})? Banks already created from it keep their settings.
      </ConfirmModal>
    </Stack>
  );
}

/** Where the template came from and whether its source has a newer revision (checked on opening). */
function SourceCard({ scope, template: t }: { scope: ScopeKind; template: TemplateData }) {
  const fromSource = t.source_name !== null;
  const check = useCheckUpdate(scope, t.id, { enabled: fromSource });
  return (
    <SectionCard title="Source">
      {!fromSource ? (
        <Text size="sm" c="dimmed">
          Made here from an inline manifest (created {formatTimestamp(t.installed_at)}); it has no source to update from.
        </Text>
      ) : (
        <Stack gap="sm">
          <Text size="sm">
            Installed from <strong>{t.source_name}</strong>
            {t.source_scope === "server" ? " (a server source)" : ""} at revision <code>{t.source_revision?.slice(0, 8)}</code> on{" "}
            {formatTimestamp(t.installed_at)}; last changed {formatTimestamp(t.updated_at)}.
          </Text>
          <Group gap="sm" data-testid="update-state">
            {check.isFetching ? (
              <Text size="sm" c="dimmed" role="status">
                Checking {t.source_name} for updates…
              </Text>
            ) : check.isError ? (
              <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title="Could not check for updates" p="xs" role="alert">
                <Text size="sm">{describeError(check.error)}</Text>
              </Alert>
            ) : check.data?.has_update ? (
              <>
                <Badge color="blue" variant="filled">
                  Update available
                </Badge>
                <Text size="sm">
                  Revision <code>{check.data.latest_revision?.slice(0, 8)}</code> is in the source.
                </Text>
                <Button component={Link} href={templateUpdatePath(scope, t.id)} size="xs" leftSection={<IconGitCompare size={14} aria-hidden />}>
                  Review update
                </Button>
              </>
            ) : check.data ? (
              <>
                <Badge color="green" variant="light">
                  Up to date
                </Badge>
                {t.locally_modified && (
                  <Anchor component={Link} href={templateUpdatePath(scope, t.id)} size="sm">
                    Compare with the source
                  </Anchor>
                )}
              </>
            ) : null}
            {!check.isFetching && (
              <Button size="xs" variant="default" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => check.refetch()}>
                Check again
              </Button>
            )}
          </Group>
        </Stack>
      )}
    </SectionCard>
  );
}
