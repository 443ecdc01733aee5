"use client";
import { Group, List, Loader, Stack, Text } from "@mantine/core";
import { EmptyList } from "@/components/console/states";
import { useCatalogs, useRefreshCatalogs } from "@/lib/client/hooks/catalog";
import { type SourceData, sourceKey } from "@/lib/client/hooks/sources";
import type { ScopeKind } from "@/lib/contracts/scope";
import { plural } from "@/lib/shared/plural";
import { CatalogBrowser } from "./CatalogBrowser";
import { CatalogFailure, LastFetched, RefreshButton } from "./CatalogStatus";
import type { SourcedEntry } from "./catalog-search";

/**
 * One search over the catalogs of every source given (those the user can install from into
 * `into`): each catalog loads on its own, side by side, sharing its cache with the source's
 * own tab; their entries are listed together, each card naming its source. A source whose
 * catalog fails shows why here, and the others are still listed.
 */
export function AllSourcesPanel({ into, sources }: { into: ScopeKind; sources: SourceData[] }) {
  const catalogs = useCatalogs(into, sources);
  const refresh = useRefreshCatalogs(into);
  const items = sources.flatMap((source, i): SourcedEntry[] => (catalogs[i]!.data?.templates ?? []).map((entry) => ({ entry, source })));
  const loading = catalogs.filter((c) => c.isPending).length;

  return (
    <Stack>
      <Group justify="space-between" align="flex-start" gap="sm">
        <List
          size="sm"
          c="dimmed"
          spacing={2}
          listStyleType="none"
          aria-label="Sources searched"
          data-testid="all-sources-status"
          style={{ flex: "1 1 300px" }}
        >
          {sources.map((source, i) => {
            const catalog = catalogs[i]!;
            return (
              <List.Item key={sourceKey(source)} data-source={sourceKey(source)}>
                <Text span size="sm" fw={600} c="var(--mantine-color-text)">
                  {source.name}
                </Text>{" "}
                ({source.scope === "server" ? "server" : "personal"}) ·{" "}
                {catalog.isPending ? (
                  <>
                    <Loader size={10} aria-hidden /> loading…
                  </>
                ) : catalog.data ? (
                  plural(catalog.data.templates.length, "template")
                ) : (
                  "not available"
                )}{" "}
                · <LastFetched source={source} />
              </List.Item>
            );
          })}
        </List>
        <RefreshButton label="Refresh all" busy={refresh.isPending} onClick={() => refresh.mutate(sources)} />
      </Group>
      {sources.map((source, i) => (
        <CatalogFailure
          key={sourceKey(source)}
          source={source}
          failure={catalogs[i]!.error?.detail ?? refresh.data?.get(sourceKey(source))?.detail ?? null}
          hasCatalog={catalogs[i]!.data !== undefined}
          onRetry={catalogs[i]!.data ? undefined : () => catalogs[i]!.refetch()}
        />
      ))}
      {loading === sources.length ? null : items.length === 0 ? (
        <EmptyList title="No templates yet" description="None of these sources lists a template." />
      ) : (
        <CatalogBrowser into={into} items={items} label="all sources" showSource />
      )}
    </Stack>
  );
}
