"use client";
import { Button, Group, NativeSelect, Progress, Stack, Text } from "@mantine/core";
import { IconPlus, IconRefresh } from "@tabler/icons-react";
import Link from "next/link";
import { useMemo, useState } from "react";
import { ConfirmModal } from "@/components/console/ConfirmModal";
import { lazyDialog } from "@/components/console/lazy";
import { PageHeader } from "@/components/console/PageHeader";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { useCheckAllForUpdates, useRemoveTemplate, useTemplates, type TemplateData } from "@/lib/client/hooks/templates";
import type { ScopeKind } from "@/lib/identity/scope";
import { marketplacePath, newTemplatePath, templatesPath } from "./paths";
import { ScopeSwitch } from "./ScopeSwitch";
import { TemplatesTable } from "./TemplatesTable";

// Open while it holds a template; its code loads the first time it does.
const UpdateTemplateModal = lazyDialog(
  () => import("./UpdateTemplateModal").then((m) => m.UpdateTemplateModal),
  (props) => props.template !== null,
  (props) => ({ ...props, template: null }),
);

const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b));

/** Installed templates: filters, "check all for updates" with progress, update and delete. */
export function TemplatesPage({ scope, isAdmin }: { scope: ScopeKind; isAdmin: boolean }) {
  const [category, setCategory] = useState<string | null>(null);
  const [tag, setTag] = useState<string | null>(null);
  const all = useTemplates(scope);
  const filtered = useTemplates(scope, { category, tag });
  const checkAll = useCheckAllForUpdates(scope);
  const remove = useRemoveTemplate(scope);
  const [progress, setProgress] = useState<{ done: number; total: number; running: boolean } | null>(null);
  const [updating, setUpdating] = useState<TemplateData | null>(null);
  const [deleting, setDeleting] = useState<TemplateData | null>(null);

  const templates = all.data?.templates ?? [];
  const categories = useMemo(() => sorted(templates.flatMap((t) => (t.category ? [t.category] : []))), [templates]);
  const tags = useMemo(() => sorted(templates.flatMap((t) => t.tags)), [templates]);
  const fromSources = templates.filter((t) => t.source_name !== null).map((t) => t.id);
  const filtering = category !== null || tag !== null;

  const runCheckAll = async () => {
    setProgress({ done: 0, total: fromSources.length, running: true });
    await checkAll(fromSources, (done) => setProgress({ done, total: fromSources.length, running: true }));
    setProgress((p) => p && { ...p, running: false });
  };

  const whose = scope === "server" ? "server" : "your";
  return (
    <>
      <PageHeader
        title="Templates"
        description={
          scope === "server"
            ? "Server templates: every user of this server can create banks from them."
            : "Your installed and hand-made bank templates."
        }
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={runCheckAll}
              loading={progress?.running}
              disabled={fromSources.length === 0}
            >
              Check all for updates
            </Button>
            <Button component={Link} href={newTemplatePath(scope)} leftSection={<IconPlus size={16} aria-hidden />}>
              New template
            </Button>
          </>
        }
      />
      {isAdmin && <ScopeSwitch scope={scope} href={templatesPath} />}
      <Stack>
        {progress && (
          <Stack gap={4} data-testid="check-progress">
            {/* Mantine words the value as a percentage; people count templates. */}
            <Progress.Root size="lg">
              <Progress.Section
                value={progress.total ? (progress.done / progress.total) * 100 : 100}
                withAria={false}
                role="progressbar"
                aria-label="Update checks"
                aria-valuemin={0}
                aria-valuemax={progress.total}
                aria-valuenow={progress.done}
                aria-valuetext={`${progress.done} of ${progress.total}`}
                animated={progress.running}
              />
            </Progress.Root>
            <Text size="sm" c="dimmed" role="status" aria-live="polite">
              {progress.running
                ? `Checking for updates: ${progress.done} of ${progress.total}`
                : `Checked ${progress.done} of ${progress.total} templates from sources for updates.`}
            </Text>
          </Stack>
        )}
        {templates.length > 0 && (
          <Group gap="sm" align="flex-end">
            {/* The browser's own select: Mantine's Select (Combobox, Popover, floating-ui) would
                double this page's own JavaScript for two plain filters. */}
            <NativeSelect
              label="Category"
              data={[{ value: "", label: "All categories" }, ...categories]}
              value={category ?? ""}
              onChange={(e) => setCategory(e.currentTarget.value || null)}
              w={200}
            />
            <NativeSelect
              label="Tag"
              data={[{ value: "", label: "All tags" }, ...tags]}
              value={tag ?? ""}
              onChange={(e) => setTag(e.currentTarget.value || null)}
              w={200}
            />
            {filtering && (
              <Button variant="subtle" onClick={() => (setCategory(null), setTag(null))}>
                Clear filters
              </Button>
            )}
          </Group>
        )}
        {all.isPending || filtered.isPending ? (
          <LoadingState label={`Loading ${whose} templates…`} />
        ) : all.isError || filtered.isError ? (
          <ErrorState title="Could not load templates" error={all.error ?? filtered.error} onRetry={() => (all.refetch(), filtered.refetch())} />
        ) : templates.length === 0 ? (
          <EmptyList
            title={scope === "server" ? "No server templates yet" : "No templates yet"}
            description="Install one from a source's catalog in the marketplace, or write one yourself."
            action={
              <Group justify="center" mt="md">
                <Button component={Link} href={marketplacePath(scope)} variant="light">
                  Browse the marketplace
                </Button>
                <Button component={Link} href={newTemplatePath(scope)} variant="default">
                  New template
                </Button>
              </Group>
            }
          />
        ) : filtered.data.templates.length === 0 ? (
          <EmptyList title="No templates match these filters" description="Clear a filter to see more." />
        ) : (
          <TemplatesTable
            scope={scope}
            templates={filtered.data.templates}
            onUpdate={setUpdating}
            onDelete={setDeleting}
            caption={filtering ? `${filtered.data.templates.length} of ${templates.length} templates, by id` : `${templates.length} templates, by id`}
          />
        )}
      </Stack>
      <UpdateTemplateModal scope={scope} template={updating} onClose={() => setUpdating(null)} />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete template?"
        confirmLabel="Delete template"
        onConfirm={() => remove.remove(deleting!.id)}
      >
        Delete <strong>{deleting?.id}</strong> ({deleting?.name})? Banks already created from it keep their settings.
        {deleting?.source_name && " You can install it again from its source."}
      </ConfirmModal>
    </>
  );
}
