"use client";
import { Alert, Anchor, Badge, Button, Card, Group, Highlight, MultiSelect, Select, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconAlertTriangle, IconCircleCheck, IconDownload, IconEye, IconSearch } from "@tabler/icons-react";
import Link from "next/link";
import { useId, useMemo, useState } from "react";
import { lazyDialog } from "@/components/console/lazy";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { templatePath } from "@/components/templates/paths";
import { useCatalog, type CatalogEntryData } from "@/lib/client/hooks/catalog";
import type { ScopeKind } from "@/lib/identity/scope";
import { EntryBadges } from "./EntryBadges";

// Open while they hold an entry; their code loads the first time they do.
const InstallModal = lazyDialog(
  () => import("./InstallModal").then((m) => m.InstallModal),
  (props) => props.entry !== null,
  (props) => ({ ...props, entry: null }),
);
const ManifestPreviewDrawer = lazyDialog(
  () => import("./ManifestPreviewDrawer").then((m) => m.ManifestPreviewDrawer),
  (props) => props.entry !== null,
  (props) => ({ ...props, entry: null }),
);

const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b));

/** Whether an entry matches the search words (all of them, in its name, id or description). */
function matches(entry: CatalogEntryData, search: string) {
  const haystack = `${entry.name} ${entry.id} ${entry.description ?? ""}`.toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/** One source's catalog: search, category and tag filters, and a card per template. */
export function CatalogPanel({ into, sourceName, sourceScope }: { into: ScopeKind; sourceName: string; sourceScope: ScopeKind }) {
  const catalog = useCatalog(into, sourceName, sourceScope);
  const [search, setSearch] = useState("");
  const [category, setCategory] = useState<string | null>(null);
  const [tags, setTags] = useState<string[]>([]);
  const [previewing, setPreviewing] = useState<CatalogEntryData | null>(null);
  const [installing, setInstalling] = useState<CatalogEntryData | null>(null);
  const [installed, setInstalled] = useState<{ id: string; name: string } | null>(null);
  const countId = useId();

  const entries = catalog.data?.templates ?? [];
  const categories = useMemo(() => sorted(entries.flatMap((e) => (e.category ? [e.category] : []))), [entries]);
  const allTags = useMemo(() => sorted(entries.flatMap((e) => e.tags)), [entries]);
  const shown = entries.filter(
    (e) => matches(e, search) && (category === null || e.category === category) && tags.every((t) => e.tags.includes(t)),
  );

  if (catalog.isPending) return <LoadingState label={`Loading the catalog of ${sourceName}…`} />;
  if (catalog.isError) {
    return <ErrorState title={`Could not load the catalog of ${sourceName}`} error={catalog.error} onRetry={() => catalog.refetch()} />;
  }
  const source = catalog.data.source;
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {source.scope === "server" ? "Server source" : "Personal source"}{" "}
        <Anchor href={source.url} target="_blank" rel="noreferrer noopener" size="sm" style={{ wordBreak: "break-all" }}>
          {source.url}
        </Anchor>
        {" · "}
        {entries.length} template{entries.length === 1 ? "" : "s"}
      </Text>
      {installed && (
        <Alert color="green" icon={<IconCircleCheck aria-hidden />} role="status" withCloseButton onClose={() => setInstalled(null)} closeButtonLabel="Dismiss">
          Installed {installed.name} as{" "}
          <Anchor component={Link} href={templatePath(into, installed.id)}>
            {installed.id}
          </Anchor>
          .
        </Alert>
      )}
      {entries.length === 0 ? (
        <EmptyList title="This catalog is empty" description={`Source ${sourceName} lists no templates yet.`} />
      ) : (
        <>
          <Group gap="sm" align="flex-end" role="search" aria-label={`Search the catalog of ${sourceName}`}>
            <TextInput
              label="Search"
              placeholder="Name or description"
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              aria-describedby={countId}
              style={{ flex: "1 1 220px" }}
              type="search"
            />
            <Select label="Category" placeholder="All categories" data={categories} value={category} onChange={setCategory} clearable w={200} />
            <MultiSelect label="Tags" placeholder={tags.length ? undefined : "Any tag"} data={allTags} value={tags} onChange={setTags} clearable searchable w={240} />
          </Group>
          <Text size="sm" c="dimmed" id={countId} aria-live="polite" data-testid="catalog-count">
            {shown.length === entries.length ? `${entries.length} templates` : `${shown.length} of ${entries.length} templates match`}
          </Text>
          {shown.length === 0 ? (
            <EmptyList
              title="No templates match"
              description="Try other words, or clear the filters."
              action={
                <Button variant="light" mt="md" onClick={() => (setSearch(""), setCategory(null), setTags([]))}>
                  Clear search and filters
                </Button>
              }
            />
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label={`Templates in ${sourceName}`}>
              {shown.map((entry) => (
                <li key={entry.id}>
                  <CatalogCard entry={entry} search={search} onPreview={() => setPreviewing(entry)} onInstall={() => setInstalling(entry)} />
                </li>
              ))}
            </SimpleGrid>
          )}
        </>
      )}
      <ManifestPreviewDrawer entry={previewing} sourceName={sourceName} onClose={() => setPreviewing(null)} onInstall={(e) => (setPreviewing(null), setInstalling(e))} />
      <InstallModal
        into={into}
        sourceName={sourceName}
        sourceScope={sourceScope}
        entry={installing}
        onClose={() => setInstalling(null)}
        onInstalled={(template) => setInstalled({ id: template.id, name: template.name })}
      />
    </Stack>
  );
}

function CatalogCard({ entry, search, onPreview, onInstall }: { entry: CatalogEntryData; search: string; onPreview: () => void; onInstall: () => void }) {
  const headingId = useId();
  const words = search.split(/\s+/).filter(Boolean);
  const isInstalled = entry.installed_as.length > 0;
  return (
    <Card withBorder padding="md" h="100%" component="article" aria-labelledby={headingId} data-testid={`catalog-entry-${entry.id}`}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <div style={{ minWidth: 0 }}>
            <Title order={3} size="h5" id={headingId}>
              <Highlight component="span" highlight={words} inherit>
                {entry.name}
              </Highlight>
            </Title>
            <Text size="xs" c="dimmed" ff="monospace">
              {entry.id} · rev {entry.revision ? entry.revision.slice(0, 8) : "none"}
            </Text>
          </div>
          {entry.problem && (
            <Badge color="yellow" variant="light" leftSection={<IconAlertTriangle size={12} aria-hidden />} style={{ flexShrink: 0 }}>
              Cannot install
            </Badge>
          )}
          {isInstalled && (
            <Badge color="green" variant="light" leftSection={<IconCircleCheck size={12} aria-hidden />} style={{ flexShrink: 0 }}>
              Installed
            </Badge>
          )}
        </Group>
        {entry.description ? (
          <Highlight size="sm" highlight={words} lineClamp={3}>
            {entry.description}
          </Highlight>
        ) : (
          <Text size="sm" c="dimmed">
            No description.
          </Text>
        )}
        <EntryBadges entry={entry} />
        {entry.problem && (
          <Text size="xs" c="yellow.9" role="note" data-testid="entry-problem">
            {entry.problem.detail}
          </Text>
        )}
        {isInstalled && (
          <Text size="xs" c="dimmed" data-testid="installed-as">
            Installed as {entry.installed_as.join(", ")}
          </Text>
        )}
        <Group gap="xs" mt="auto" pt="xs">
          <Button size="xs" variant="default" leftSection={<IconEye size={14} aria-hidden />} onClick={onPreview} disabled={entry.manifest === null} aria-label={`Preview manifest of ${entry.name}`}>
            Preview
          </Button>
          <Button size="xs" variant={isInstalled ? "light" : "filled"} leftSection={<IconDownload size={14} aria-hidden />} onClick={onInstall} disabled={entry.problem !== null} aria-label={`Install ${entry.name}`}>
            {isInstalled ? "Install again" : "Install"}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
