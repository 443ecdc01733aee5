"use client";
import { Badge, Group, Highlight, VisuallyHidden } from "@mantine/core";
import { IconPlug } from "@tabler/icons-react";
import type { CatalogEntryData } from "@/lib/client/hooks/catalog";

/**
 * A catalog entry's category, integrations and tags, each named for screen readers; the
 * words of a search (`highlight`) are marked in integrations and tags, which it covers.
 */
export function EntryBadges({
  entry,
  highlight = [],
}: {
  entry: Pick<CatalogEntryData, "category" | "integrations" | "tags">;
  highlight?: string[];
}) {
  return (
    <Group gap={4}>
      {entry.category && (
        <Badge variant="outline" size="sm" tt="none">
          <VisuallyHidden>Category: </VisuallyHidden>
          {entry.category}
        </Badge>
      )}
      {entry.integrations.map((i) => (
        <Badge key={i} variant="light" color="grape" size="sm" tt="none" leftSection={<IconPlug size={11} aria-hidden />}>
          <VisuallyHidden>Integration: </VisuallyHidden>
          <Highlight component="span" highlight={highlight} inherit>
            {i}
          </Highlight>
        </Badge>
      ))}
      {entry.tags.map((t) => (
        <Badge key={t} variant="default" size="sm" tt="none">
          #
          <Highlight component="span" highlight={highlight} inherit>
            {t}
          </Highlight>
        </Badge>
      ))}
    </Group>
  );
}
