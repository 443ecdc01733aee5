"use client";
import { Badge, Stack, Text } from "@mantine/core";
import { formatTimestamp } from "@/lib/client/format";
import { hasUpdate, type TemplateData } from "@/lib/client/hooks/templates";

const short = (revision: string | null) => (revision ? revision.slice(0, 8) : "?");

/**
 * What is known about a template's upstream, from the status the server stores with it
 * (CONTRACT §13), so it survives a reload: never checked, an update, or up to date, with
 * when it was checked. `checkFailure` is why this page's last check of it failed.
 */
export function UpdateStatus({ template: t, checkFailure }: { template: TemplateData; checkFailure?: string }) {
  if (t.source_name === null) {
    return (
      <Text size="sm" c="dimmed">
        Made here
      </Text>
    );
  }
  const checked = t.update_checked_at && (
    <Text size="xs" c="dimmed">
      Checked {formatTimestamp(t.update_checked_at)}
    </Text>
  );
  if (checkFailure) {
    return (
      <Stack gap={2} align="flex-start">
        <Badge color="red" variant="light">
          Check failed
        </Badge>
        <Text size="xs" c="red" maw={280}>
          {checkFailure}
        </Text>
      </Stack>
    );
  }
  if (t.update_checked_at === null) {
    return (
      <Text size="sm" c="dimmed">
        Not checked
      </Text>
    );
  }
  return hasUpdate(t) ? (
    <Stack gap={2} align="flex-start">
      <Badge color="blue" variant="filled">
        Update available
      </Badge>
      <Text size="xs" c="dimmed" ff="monospace">
        {short(t.source_revision)} → {short(t.latest_revision)}
      </Text>
      {checked}
    </Stack>
  ) : (
    <Stack gap={2} align="flex-start">
      <Badge color="green" variant="light">
        Up to date
      </Badge>
      {checked}
    </Stack>
  );
}
