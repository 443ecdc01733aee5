"use client";
import { Alert, Anchor, Badge, Button, Group, Stack, Text, Title } from "@mantine/core";
import {
  IconAlertTriangle,
  IconBuildingBank,
  IconCircleCheck,
  IconGitCompare,
  IconHistory,
  IconRefresh,
  IconTrash,
} from "@tabler/icons-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { newBankFromTemplateHref } from "@/components/banks/links";
import { ConfirmModal } from "@/components/console/ConfirmModal";
import { lazySection } from "@/components/console/lazy";
import { SectionCard } from "@/components/console/SectionCard";
import { ErrorState, LoadingState } from "@/components/console/states";
import { entityTagOf } from "@/lib/client/entity-tag";
import { formatTimestamp } from "@/lib/client/format";
import {
  hasUpdate,
  type TemplateData,
  useCheckUpdate,
  useRemoveTemplate,
  useTemplate,
  useUsableTemplate,
} from "@/lib/client/hooks/templates";
import { describeError } from "@/lib/client/problem";
import type { ScopeKind } from "@/lib/contracts/scope";
import { Crumbs } from "./Crumbs";
import { HomepageLink } from "./HomepageLink";
import { type JustUpdated, templatesPath, templateUpdatePath, templateVersionsPath } from "./paths";
import { TemplateBanks } from "./TemplateBanks";
import { CopyManifestButton, TemplateContents, TemplateUsage } from "./TemplateContents";
import { TemplateNotFound } from "./TemplateNotFound";
import { TemplateSummary } from "./TemplateSummary";
import { UpdateStatus } from "./UpdateStatus";

// The changelog reads several versions once the template arrived; its code loads alongside them.
const Changelog = lazySection(
  () => import("./versions/Changelog").then((m) => m.Changelog),
  <LoadingState label="Loading the changelog…" />,
);

/** `manage`: the caller may change the template; `use`: a member reading a server template. */
export type TemplateAccess = "manage" | "use";

// The editor shows once the template arrived; its code loads alongside it.
const TemplateEditor = lazySection(
  () => import("./TemplateEditor").then((m) => m.TemplateEditor),
  <LoadingState label="Loading the editor…" />,
);

/** One template: what it is, whether its source has news, and the editor (or, for members on a server template, its contents). */
export function TemplateDetailPage({
  scope,
  id,
  updated,
  access,
}: {
  scope: ScopeKind;
  id: string;
  updated?: JustUpdated;
  access: TemplateAccess;
}) {
  const template = useReadableTemplate(scope, id, access);
  const crumbs = (
    <Crumbs trail={[{ href: templatesPath(scope), label: scope === "server" ? "Server templates" : "Templates" }]} current={id} />
  );
  if (template.isPending) {
    return (
      <>
        {crumbs}
        <LoadingState label={`Loading template ${id}…`} />
      </>
    );
  }
  if (template.isError) {
    return (
      <>
        {crumbs}
        {template.error.status === 404 ? (
          <TemplateNotFound scope={scope} id={id} />
        ) : (
          <>
            <Title order={1} size="h2" mb="md">
              Template {id}
            </Title>
            <ErrorState title="Could not load the template" error={template.error} onRetry={() => template.refetch()} />
          </>
        )}
      </>
    );
  }
  return (
    <>
      {crumbs}
      <Loaded scope={scope} template={template.data} updated={updated} access={access} />
    </>
  );
}

/** Through the scope's own endpoint for those who manage it, else through the read-only one (CONTRACT §13). */
function useReadableTemplate(scope: ScopeKind, id: string, access: TemplateAccess) {
  const managed = useTemplate(scope, id, { enabled: access === "manage" });
  const usable = useUsableTemplate(scope, id, { enabled: access === "use" });
  return access === "manage" ? managed : usable;
}

/**
 * Right after an update: the revision the template now holds, whether its local edits were kept
 * (a merge leaves it edited), and when the source had published again after the review, that it
 * holds changes nobody reviewed.
 */
function UpdatedNotice({ template: t, updated }: { template: TemplateData; updated: JustUpdated }) {
  const moved = updated.reviewed !== undefined;
  return (
    <Alert
      color={moved ? "yellow" : "green"}
      icon={moved ? <IconAlertTriangle aria-hidden /> : <IconCircleCheck aria-hidden />}
      role="status"
      title={t.locally_modified ? "Updated from source; your edits kept" : "Updated from source"}
      data-testid="updated-notice"
    >
      {t.id} now holds revision <code>{updated.revision.slice(0, 8)}</code> from source {t.source_name}.
      {moved && (
        <>
          {" "}
          The source published it after you reviewed revision <code>{updated.reviewed!.slice(0, 8)}</code>, so it also holds changes you did
          not review: compare the newest versions in{" "}
          <Anchor component={Link} href={templateVersionsPath(t.scope, t.id)}>
            Versions
          </Anchor>
          .
        </>
      )}
    </Alert>
  );
}

function Loaded({
  scope,
  template: t,
  updated,
  access,
}: {
  scope: ScopeKind;
  template: TemplateData;
  updated?: JustUpdated;
  access: TemplateAccess;
}) {
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
            <HomepageLink url={t.homepage_url} name={t.name} />
          </Group>
        </Stack>
        <Group gap="xs">
          <Button
            component={Link}
            href={newBankFromTemplateHref(scope, t.id)}
            variant="light"
            leftSection={<IconBuildingBank size={16} aria-hidden />}
          >
            Create a bank from it
          </Button>
          <CopyManifestButton template={t} />
          {access === "manage" && (
            <>
              <Button
                component={Link}
                href={templateVersionsPath(scope, t.id)}
                variant="default"
                leftSection={<IconHistory size={16} aria-hidden />}
              >
                Versions
              </Button>
              <Button variant="subtle" color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(true)}>
                Delete template
              </Button>
            </>
          )}
        </Group>
      </Group>
      {updated && <UpdatedNotice template={t} updated={updated} />}
      <SourceCard scope={scope} template={t} access={access} />
      <SectionCard title="What it holds">
        <TemplateSummary content={t} />
      </SectionCard>
      {/* The versions are read by those who manage the template (CONTRACT §13). */}
      {access === "manage" && <Changelog scope={scope} id={t.id} />}
      {access === "manage" ? <TemplateEditor scope={scope} template={t} /> : <TemplateContents template={t} />}
      <TemplateUsage scope={scope} template={t} />
      <TemplateBanks scope={scope} id={t.id} />
      <ConfirmModal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title="Delete template?"
        confirmLabel="Delete template"
        onConfirm={async () => {
          await remove.remove(t.id, entityTagOf(t));
          router.push(templatesPath(scope));
        }}
      >
        Delete <strong>{t.id}</strong> ({t.name})? Banks already created from it keep their settings.
      </ConfirmModal>
    </Stack>
  );
}

/**
 * Where the template came from and what its source holds: the stored update status at once,
 * refreshed by a check on opening (for those who can update it) and on "Check again".
 */
function SourceCard({ scope, template: t, access }: { scope: ScopeKind; template: TemplateData; access: TemplateAccess }) {
  const fromSource = t.source_name !== null;
  const check = useCheckUpdate(scope);
  const canCheck = fromSource && access === "manage";
  const runCheck = check.mutate;
  useEffect(() => {
    if (canCheck) runCheck({ params: { template_id: t.id } });
  }, [canCheck, runCheck, t.id]);
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
          {access === "manage" && (
            <Group gap="sm" data-testid="update-state">
              {check.isPending ? (
                <Text size="sm" c="dimmed" role="status">
                  Checking {t.source_name} for updates…
                </Text>
              ) : check.isError ? (
                <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title="Could not check for updates" p="xs" role="alert">
                  <Text size="sm">{describeError(check.error)}</Text>
                </Alert>
              ) : (
                <>
                  <UpdateStatus template={t} />
                  {hasUpdate(t) ? (
                    <Button
                      component={Link}
                      href={templateUpdatePath(scope, t.id)}
                      size="xs"
                      leftSection={<IconGitCompare size={14} aria-hidden />}
                    >
                      Review update
                    </Button>
                  ) : (
                    t.locally_modified && (
                      <Anchor component={Link} href={templateUpdatePath(scope, t.id)} size="sm">
                        Compare with the source
                      </Anchor>
                    )
                  )}
                </>
              )}
              {!check.isPending && (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconRefresh size={14} aria-hidden />}
                  onClick={() => runCheck({ params: { template_id: t.id } })}
                >
                  Check again
                </Button>
              )}
            </Group>
          )}
        </Stack>
      )}
    </SectionCard>
  );
}
