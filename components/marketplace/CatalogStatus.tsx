"use client";
import { Alert, Button, Text } from "@mantine/core";
import { IconAlertTriangle, IconRefresh } from "@tabler/icons-react";
import { formatAge, formatTimestamp } from "@/lib/client/format";
import type { SourceData } from "@/lib/client/hooks/sources";

/** Revalidates catalogs with their marketplaces. */
export function RefreshButton({ label, busy, onClick }: { label: string; busy: boolean; onClick: () => void }) {
  return (
    <Button
      variant="default"
      size="xs"
      leftSection={<IconRefresh size={14} aria-hidden />}
      loading={busy}
      onClick={onClick}
      title="Fetch from the marketplace again"
    >
      {label}
    </Button>
  );
}

/** When a source's catalog was last fetched from its marketplace: "Last fetched 5 minutes ago", or "Never fetched". */
export function LastFetched({ source }: { source: Pick<SourceData, "catalog_fetched_at"> }) {
  const at = source.catalog_fetched_at;
  if (!at) return <>Never fetched</>;
  return (
    <>
      Last fetched{" "}
      <time dateTime={at} title={formatTimestamp(at)}>
        {formatAge(at)}
      </time>
    </>
  );
}

/**
 * Why a source's catalog is not current: this page's failed load if there is one, else the
 * failure the server recorded for the source's latest catalog fetch (by anyone: a browse, an
 * install, a scheduled check). Nothing when neither.
 */
export function CatalogFailure({
  source,
  failure,
  hasCatalog,
  onRetry,
}: {
  source: SourceData;
  /** This page's own failed load or refresh, shown before the recorded status. */
  failure: string | null;
  /** A catalog from an earlier fetch is still shown. */
  hasCatalog: boolean;
  onRetry?: () => void;
}) {
  const reason = failure ?? source.catalog_error;
  if (!reason) return null;
  return (
    <Alert
      color="red"
      icon={<IconAlertTriangle aria-hidden />}
      role="alert"
      title={`Could not fetch the catalog of ${source.name}`}
      data-testid="catalog-failure"
    >
      <Text size="sm">{reason}</Text>
      {hasCatalog && (
        <Text size="xs" c="dimmed" mt={4}>
          Showing the catalog as it was last fetched.
        </Text>
      )}
      {onRetry && (
        <Button variant="light" color="red" size="xs" mt="sm" leftSection={<IconRefresh size={14} aria-hidden />} onClick={onRetry}>
          Try again
        </Button>
      )}
    </Alert>
  );
}
