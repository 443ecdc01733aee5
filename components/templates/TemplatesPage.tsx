"use client";
import { Button, Group, NativeSelect, Stack, TextInput } from "@mantine/core";
import { IconPlus, IconSearch } from "@tabler/icons-react";
import Link from "next/link";
import { parseAsString, useQueryStates } from "nuqs";
import { useMemo, useState } from "react";
import { ConfirmModal } from "@/components/console/ConfirmModal";
import { lazyDialog, lazySection } from "@/components/console/lazy";
import { PageHeader } from "@/components/console/PageHeader";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { withUrlState } from "@/components/console/url-state";
import { entityTagOf } from "@/lib/client/entity-tag";
import { type TemplateData, useRemoveTemplate, useTemplates, useUsableTemplates } from "@/lib/client/hooks/templates";
import { matchesSearch } from "@/lib/client/search";
import type { ScopeKind } from "@/lib/contracts/scope";
import { plural } from "@/lib/shared/plural";
import { marketplacePath, newTemplatePath, templatesPath } from "./paths";
import { ScopeSwitch } from "./ScopeSwitch";

// Open while it holds a template; its code loads the first time it does.
const UpdateTemplateModal = lazyDialog(
  () => import("./UpdateTemplateModal").then((m) => m.UpdateTemplateModal),
  (props) => props.template !== null,
  (props) => ({ ...props, template: null }),
);
// Checks and bulk updates, and the table itself (with its row actions and their phone menu):
// shown with the list, loaded beside it.
const TemplateUpdatesPanel = lazySection(() => import("./TemplateUpdatesPanel").then((m) => m.TemplateUpdatesPanel), null);
const TemplatesTable = lazySection(
  () => import("./TemplatesTable").then((m) => m.TemplatesTable),
  <LoadingState label="Loading the templates…" />,
);

const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b));
const noFailures: ReadonlyMap<string, string> = new Map();

/** The list's search and filters, kept in the URL (`?q=&category=&tag=`) beside `?scope=`. */
const listParams = { q: parseAsString.withDefault(""), category: parseAsString, tag: parseAsString };

/**
 * Templates of one scope: filters, update status, "check all" and "update all", update and
 * delete. Members see the server's templates read-only, to create banks from them.
 */
function TemplatesPageView({ scope, isAdmin }: { scope: ScopeKind; isAdmin: boolean }) {
  const access = scope === "personal" || isAdmin ? "manage" : "use";
  // A reload shows the same list; each filter change is a history entry, so Back undoes it (typing replaces).
  const [{ q, category, tag }, setFilters] = useQueryStates(listParams, { history: "push" });
  const all = useScopeTemplates(scope, access);
  const remove = useRemoveTemplate(scope);
  const [checkFailures, setCheckFailures] = useState(noFailures);
  const [updating, setUpdating] = useState<TemplateData | null>(null);
  const [deleting, setDeleting] = useState<TemplateData | null>(null);

  const templates = all.data?.templates ?? [];
  // With none of their own, the server's templates they can use are offered in their place.
  const server = useServerTemplateCount(scope === "personal" && all.data?.templates.length === 0);
  const categories = useMemo(() => sorted(templates.flatMap((t) => (t.category ? [t.category] : []))), [templates]);
  const tags = useMemo(() => sorted(templates.flatMap((t) => t.tags)), [templates]);
  const filtering = category !== null || tag !== null || q !== "";
  // One list, filtered here: the same answer serves the facets and the rows.
  const shown = templates.filter(
    (t) =>
      (category === null || t.category === category) &&
      (tag === null || t.tags.includes(tag)) &&
      matchesSearch(q, t.id, t.name, t.description),
  );

  const whose = scope === "server" ? "server" : "your";
  // The two ways to get a template, offered wherever the list is empty.
  const installOrWrite = (
    <>
      <Button component={Link} href={marketplacePath(scope)} variant="light">
        Browse the marketplace
      </Button>
      <Button component={Link} href={newTemplatePath(scope)} variant="default">
        New template
      </Button>
    </>
  );
  return (
    <>
      <PageHeader
        title="Templates"
        description={
          access === "use"
            ? "Server templates, published by the admins: create banks from them. Only admins change them."
            : scope === "server"
              ? "Server templates: every user of this server can create banks from them."
              : "Your installed and hand-made bank templates."
        }
        actions={
          access === "manage" && (
            <Button component={Link} href={newTemplatePath(scope)} leftSection={<IconPlus size={16} aria-hidden />}>
              New template
            </Button>
          )
        }
      />
      <ScopeSwitch scope={scope} href={templatesPath} />
      <Stack>
        {access === "manage" && templates.length > 0 && (
          <TemplateUpdatesPanel scope={scope} templates={templates} onCheckFailures={setCheckFailures} />
        )}
        {templates.length > 0 && (
          <Group gap="sm" align="flex-end" role="search" aria-label="Filter the templates">
            <TextInput
              label="Search"
              placeholder="Id, name or description"
              type="search"
              leftSection={<IconSearch size={16} aria-hidden />}
              value={q}
              onChange={(e) => setFilters({ q: e.currentTarget.value }, { history: "replace" })}
              w={240}
            />
            {/* The browser's own select: Mantine's Select (Combobox, Popover, floating-ui) would
                double this page's own JavaScript for two plain filters. */}
            <NativeSelect
              label="Category"
              data={[{ value: "", label: "All categories" }, ...categories]}
              value={category ?? ""}
              onChange={(e) => setFilters({ category: e.currentTarget.value || null })}
              w={200}
            />
            <NativeSelect
              label="Tag"
              data={[{ value: "", label: "All tags" }, ...tags]}
              value={tag ?? ""}
              onChange={(e) => setFilters({ tag: e.currentTarget.value || null })}
              w={200}
            />
            {filtering && (
              <Button variant="subtle" onClick={() => setFilters({ q: null, category: null, tag: null })}>
                Clear filters
              </Button>
            )}
          </Group>
        )}
        {all.isPending || server.pending ? (
          <LoadingState label={`Loading ${whose} templates…`} />
        ) : all.isError ? (
          <ErrorState title="Could not load templates" error={all.error} onRetry={() => all.refetch()} />
        ) : templates.length === 0 && server.count ? (
          <EmptyList
            title="No templates of your own yet"
            description={`The server has ${plural(server.count, "template")} you can create banks from. Install your own from a source's catalog, or write one.`}
            action={
              <Group justify="center" mt="md">
                <Button component={Link} href={templatesPath("server")}>
                  See the server&apos;s templates
                </Button>
                {installOrWrite}
              </Group>
            }
          />
        ) : templates.length === 0 ? (
          <EmptyList
            title={scope === "server" ? "No server templates yet" : "No templates yet"}
            description={
              access === "use"
                ? "When the admins publish server templates, they show here."
                : "Install one from a source's catalog in the marketplace, or write one yourself."
            }
            action={
              access === "manage" && (
                <Group justify="center" mt="md">
                  {installOrWrite}
                </Group>
              )
            }
          />
        ) : shown.length === 0 ? (
          <EmptyList title="No templates match these filters" description="Clear a filter to see more." />
        ) : (
          <TemplatesTable
            scope={scope}
            templates={shown}
            access={access}
            checkFailures={checkFailures}
            onUpdate={setUpdating}
            onDelete={setDeleting}
            caption={`${filtering ? `${shown.length} of ` : ""}${plural(templates.length, "template")}, by id`}
          />
        )}
      </Stack>
      <UpdateTemplateModal scope={scope} template={updating} onClose={() => setUpdating(null)} />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete template?"
        confirmLabel="Delete template"
        onConfirm={() => remove.remove(deleting!.id, entityTagOf(deleting))}
      >
        Delete <strong>{deleting?.id}</strong> ({deleting?.name})? Banks already created from it keep their settings.
        {deleting?.source_name && " You can install it again from its source."}
      </ConfirmModal>
    </>
  );
}

/**
 * The scope's templates as the caller may see them: through the scope's own endpoint when they
 * manage it, else (a member's view of server templates) the server's part of the usable ones.
 */
function useScopeTemplates(scope: ScopeKind, access: "manage" | "use") {
  const managed = useTemplates(scope, { enabled: access === "manage" });
  const usable = useUsableTemplates({ enabled: access === "use", scope });
  return access === "manage" ? managed : usable;
}

/** How many server templates the caller can use, asked only when `enabled`; `pending` while that answer is awaited. */
function useServerTemplateCount(enabled: boolean) {
  const server = useUsableTemplates({ enabled, scope: "server" });
  return { pending: enabled && server.isPending, count: enabled ? (server.data?.templates.length ?? 0) : 0 };
}

// Not shallow: the server part reads ?scope= (see withUrlState).
export const TemplatesPage = withUrlState(TemplatesPageView, { serverReadsQuery: true });
