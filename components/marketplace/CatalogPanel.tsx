"use client";
import { Anchor, Group, Stack, Text } from "@mantine/core";
import { useMemo } from "react";
import { EmptyList, LoadingState } from "@/components/console/states";
import { useCatalog, useRefreshCatalogs } from "@/lib/client/hooks/catalog";
import { type SourceData, sourceKey } from "@/lib/client/hooks/sources";
import type { ScopeKind } from "@/lib/contracts/scope";
import { plural } from "@/lib/shared/plural";
import { CatalogBrowser } from "./CatalogBrowser";
import { CatalogFailure, LastFetched, RefreshButton } from "./CatalogStatus";

/**
 * One source's catalog: where it comes from, when it was last fetched (and why the last fetch
 * failed, if it did), a Refresh button that revalidates it with the marketplace, and the
 * catalog's search, filters and cards.
 */
export function CatalogPanel({ into, source }: { into: ScopeKind; source: SourceData }) {
  const catalog = useCatalog(into, source);
  const refresh = useRefreshCatalogs(into);
  const items = useMemo(() => (catalog.data?.templates ?? []).map((entry) => ({ entry, source })), [catalog.data, source]);

  if (catalog.isPending) return <LoadingState label={`Loading the catalog of ${source.name}…`} />;
  const refreshFailure = refresh.data?.get(sourceKey(source))?.detail ?? null;
  const count = items.length;
  return (
    <Stack>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Text size="sm" c="dimmed" style={{ flex: "1 1 300px" }}>
          {source.scope === "server" ? "Server source" : "Personal source"}{" "}
          <Anchor href={source.url} target="_blank" rel="noreferrer noopener" size="sm" style={{ wordBreak: "break-all" }}>
            {source.url}
          </Anchor>
          {catalog.data && ` · ${plural(count, "template")}`}
          {" · "}
          <span data-testid="catalog-fetched">
            <LastFetched source={source} />
          </span>
        </Text>
        <RefreshButton label="Refresh" busy={refresh.isPending} onClick={() => refresh.mutate([source])} />
      </Group>
      <CatalogFailure
        source={source}
        failure={catalog.error?.detail ?? refreshFailure}
        hasCatalog={catalog.data !== undefined}
        onRetry={catalog.data ? undefined : () => catalog.refetch()}
      />
      {!catalog.data ? null : count === 0 ? (
        <EmptyList title="This catalog is empty" description={`Source ${source.name} lists no templates yet.`} />
      ) : (
        <CatalogBrowser into={into} items={items} label={source.name} />
      )}
    </Stack>
  );
}
