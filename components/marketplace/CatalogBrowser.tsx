"use client";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Highlight,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconAlertTriangle, IconCircleCheck, IconDownload, IconEye, IconSearch } from "@tabler/icons-react";
import Link from "next/link";
import { useQueryStates } from "nuqs";
import { Fragment, useId, useMemo, useState } from "react";
import { lazyDialog } from "@/components/console/lazy";
import { EmptyList } from "@/components/console/states";
import { HomepageLink } from "@/components/templates/HomepageLink";
import { templatePath } from "@/components/templates/paths";
import { sourceKey } from "@/lib/client/hooks/sources";
import { searchWords } from "@/lib/client/search";
import type { ScopeKind } from "@/lib/contracts/scope";
import { plural } from "@/lib/shared/plural";
import {
  type CatalogFilters,
  type CatalogSort,
  catalogFilterParams,
  catalogFilterUrlKeys,
  effectiveSort,
  facetValues,
  matchesFilters,
  NO_FILTERS,
  type SourcedEntry,
  sortEntries,
} from "./catalog-search";
import { EntryBadges } from "./EntryBadges";
import { installedPlaces } from "./installed";

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

/**
 * Search, filters and a card per template over catalog entries of one source or of many
 * (`showSource`: each card names its source). Install and preview use the entry's own source.
 */
export function CatalogBrowser({
  into,
  items,
  label,
  showSource = false,
}: {
  into: ScopeKind;
  items: SourcedEntry[];
  /** What is browsed, for accessible names: "acme", "all sources". */
  label: string;
  showSource?: boolean;
}) {
  // In the URL: typing replaces the current entry (no history entry per letter); choosing a facet
  // pushes one, so Back undoes it.
  const [filters, setFilters] = useQueryStates(catalogFilterParams, { urlKeys: catalogFilterUrlKeys, history: "push" });
  const [previewing, setPreviewing] = useState<SourcedEntry | null>(null);
  const [installing, setInstalling] = useState<SourcedEntry | null>(null);
  const [installed, setInstalled] = useState<{ id: string; name: string } | null>(null);
  const countId = useId();
  const set = (change: Partial<CatalogFilters>) => setFilters(change, "search" in change ? { history: "replace" } : undefined);

  const categories = useMemo(() => facetValues(items, (e) => (e.category ? [e.category] : [])), [items]);
  const integrations = useMemo(() => facetValues(items, (e) => e.integrations), [items]);
  const allTags = useMemo(() => facetValues(items, (e) => e.tags), [items]);
  const words = searchWords(filters.search);
  const sort = effectiveSort(filters);
  const shown = sortEntries(
    items.filter((item) => matchesFilters(item.entry, filters)),
    sort,
    filters.search,
  );
  // Relevance is an order only while searching; the default order stays out of the URL.
  const sorts: { value: CatalogSort; label: string }[] = [
    ...(words.length > 0 ? [{ value: "relevance" as const, label: "Relevance" }] : []),
    { value: "name", label: "Name, A to Z" },
    { value: "catalog", label: "The marketplace's order" },
  ];
  const chooseSort = (value: string | null) => {
    const chosen = (value ?? null) as CatalogSort | null;
    set({ sort: chosen === effectiveSort({ search: filters.search, sort: null }) ? null : chosen });
  };

  return (
    <Stack>
      {installed && (
        <Alert
          color="green"
          icon={<IconCircleCheck aria-hidden />}
          role="status"
          withCloseButton
          onClose={() => setInstalled(null)}
          closeButtonLabel="Dismiss"
        >
          Installed {installed.name} as{" "}
          <Anchor component={Link} href={templatePath(into, installed.id)}>
            {installed.id}
          </Anchor>
          .
        </Alert>
      )}
      <Group gap="sm" align="flex-end" role="search" aria-label={`Search the catalog of ${label}`}>
        <TextInput
          label="Search"
          placeholder="Name, description, id, tag or integration"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={filters.search}
          onChange={(e) => set({ search: e.currentTarget.value })}
          aria-describedby={countId}
          style={{ flex: "1 1 260px" }}
          type="search"
        />
        <Select
          label="Category"
          placeholder="All categories"
          data={categories}
          value={filters.category}
          onChange={(category) => set({ category })}
          clearable
          w={180}
        />
        <Select
          label="Integration"
          placeholder="All integrations"
          data={integrations}
          value={filters.integration}
          onChange={(integration) => set({ integration })}
          clearable
          searchable
          w={200}
        />
        <MultiSelect
          label="Tags"
          placeholder={filters.tags.length ? undefined : "Any tag"}
          data={allTags}
          value={filters.tags}
          onChange={(tags) => set({ tags })}
          clearable
          searchable
          w={220}
        />
      </Group>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Text size="sm" c="dimmed" id={countId} aria-live="polite" data-testid="catalog-count">
          {shown.length === items.length
            ? plural(items.length, "template")
            : `${shown.length} of ${plural(items.length, "template")} match`}
        </Text>
        <Select label="Sort by" data={sorts} value={sort} onChange={chooseSort} allowDeselect={false} w={200} />
      </Group>
      {shown.length === 0 ? (
        <EmptyList
          title="No templates match"
          description="Try other words, or clear the filters."
          action={
            <Button variant="light" mt="md" onClick={() => setFilters(NO_FILTERS)}>
              Clear search and filters
            </Button>
          }
        />
      ) : (
        <SimpleGrid
          cols={{ base: 1, sm: 2, xl: 3 }}
          spacing="md"
          component="ul"
          style={{ listStyle: "none", padding: 0, margin: 0 }}
          aria-label={`Templates in ${label}`}
        >
          {shown.map((item) => (
            <li key={`${sourceKey(item.source)}/${item.entry.id}`}>
              <CatalogCard
                item={item}
                into={into}
                words={words}
                showSource={showSource}
                onPreview={() => setPreviewing(item)}
                onInstall={() => setInstalling(item)}
              />
            </li>
          ))}
        </SimpleGrid>
      )}
      <ManifestPreviewDrawer
        entry={previewing?.entry ?? null}
        source={previewing?.source ?? null}
        onClose={() => setPreviewing(null)}
        onInstall={() => {
          setPreviewing(null);
          setInstalling(previewing);
        }}
      />
      <InstallModal
        into={into}
        sourceName={installing?.source.name ?? ""}
        sourceScope={installing?.source.scope ?? "personal"}
        entry={installing?.entry ?? null}
        onClose={() => setInstalling(null)}
        onInstalled={(template) => setInstalled({ id: template.id, name: template.name })}
      />
    </Stack>
  );
}

function CatalogCard({
  item: { entry, source },
  into,
  words,
  showSource,
  onPreview,
  onInstall,
}: {
  item: SourcedEntry;
  into: ScopeKind;
  words: string[];
  showSource: boolean;
  onPreview: () => void;
  onInstall: () => void;
}) {
  const headingId = useId();
  const places = installedPlaces(entry, into);
  const isInstalled = places.length > 0;
  return (
    <Card
      withBorder
      padding="md"
      h="100%"
      component="article"
      aria-labelledby={headingId}
      data-testid={`catalog-entry-${entry.id}`}
      data-source={sourceKey(source)}
    >
      <Stack gap="xs" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <div style={{ minWidth: 0 }}>
            <Title order={3} size="h5" id={headingId}>
              <Highlight component="span" highlight={words} inherit>
                {entry.name}
              </Highlight>
            </Title>
            <Text size="xs" c="dimmed" ff="monospace">
              <Highlight component="span" highlight={words} inherit>
                {entry.id}
              </Highlight>{" "}
              · rev {entry.revision ? entry.revision.slice(0, 8) : "none"}
            </Text>
            {showSource && (
              <Text size="xs" c="dimmed" data-testid="entry-source">
                From {source.name} ({source.scope === "server" ? "server source" : "personal source"})
              </Text>
            )}
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
        <EntryBadges entry={entry} highlight={words} />
        <HomepageLink url={entry.homepage_url} name={entry.name} />
        {entry.problem && (
          <Text size="xs" c="yellow.9" role="note" data-testid="entry-problem">
            {entry.problem.detail}
          </Text>
        )}
        <Group gap="xs" mt="auto" pt="xs" align="center">
          <Button
            size="xs"
            variant="default"
            leftSection={<IconEye size={14} aria-hidden />}
            onClick={onPreview}
            disabled={entry.manifest === null}
            aria-label={`Preview manifest of ${entry.name}`}
          >
            Preview
          </Button>
          {/* Installed already (by the caller, or on the server): where it is, rather than an Install inviting a
              duplicate (Preview still installs again, a copy of one's own). */}
          {isInstalled ? (
            <Text size="xs" data-testid="installed-as">
              Installed as{" "}
              {places.map(({ scope, id }, i) => (
                <Fragment key={`${scope}/${id}`}>
                  {i > 0 && ", "}
                  <Anchor component={Link} href={templatePath(scope, id)} size="xs" ff="monospace">
                    {scope}/{id}
                  </Anchor>
                </Fragment>
              ))}
            </Text>
          ) : (
            <Button
              size="xs"
              leftSection={<IconDownload size={14} aria-hidden />}
              onClick={onInstall}
              disabled={entry.problem !== null}
              aria-label={`Install ${entry.name}`}
            >
              Install
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
