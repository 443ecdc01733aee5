"use client";
import { Badge, Group, Loader, Stack, Text } from "@mantine/core";
import { describeError } from "@/lib/client/problem";
import { useCheckUpdate, type TemplateData } from "@/lib/client/hooks/templates";
import type { ScopeKind } from "@/lib/identity/scope";

const short = (revision: string | null) => (revision ? revision.slice(0, 8) : "?");

/**
 * What is known about a template's upstream: never checked, checking, an update, up to date,
 * or why the check failed. Reads the cached check; "Check all" (or the detail page) fills it.
 */
export function UpdateStatus({ scope, template }: { scope: ScopeKind; template: TemplateData }) {
  const fromSource = template.source_name !== null;
  const query = useCheckUpdate(scope, template.id, { enabled: false });
  if (!fromSource) {
    return (
      <Text size="sm" c="dimmed">
        Made here
      </Text>
    );
  }
  if (query.isFetching) {
    return (
      <Group gap={6} wrap="nowrap">
        <Loader size={14} aria-hidden />
        <Text size="sm" c="dimmed">
          Checking…
        </Text>
      </Group>
    );
  }
  if (query.isError) {
    return (
      <Stack gap={2} align="flex-start">
        <Badge color="red" variant="light" style={{ minWidth: "max-content" }}>
          Check failed
        </Badge>
        <Text size="xs" c="red" maw={280}>
          {describeError(query.error)}
        </Text>
      </Stack>
    );
  }
  if (!query.data) {
    return (
      <Text size="sm" c="dimmed">
        Not checked
      </Text>
    );
  }
  return query.data.has_update ? (
    <Stack gap={2} align="flex-start">
      <Badge color="blue" variant="filled" style={{ minWidth: "max-content" }}>
        Update available
      </Badge>
      <Text size="xs" c="dimmed" ff="monospace">
        {short(query.data.current_revision)} → {short(query.data.latest_revision)}
      </Text>
    </Stack>
  ) : (
    <Badge color="green" variant="light" style={{ minWidth: "max-content" }}>
      Up to date
    </Badge>
  );
}
