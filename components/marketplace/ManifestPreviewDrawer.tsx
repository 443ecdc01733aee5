"use client";
import { Button, Code, CopyButton, Drawer, Group, Stack, Text } from "@mantine/core";
import { IconCheck, IconCopy, IconDownload } from "@tabler/icons-react";
import { formatJson } from "@/components/templates/json-text";
import type { CatalogEntryData } from "@/lib/client/hooks/catalog";
import { EntryBadges } from "./EntryBadges";
import { isInstalledAnywhere } from "./installed";

/** A catalog entry's manifest as formatted JSON, with its details, before installing it. */
export function ManifestPreviewDrawer({
  entry,
  sourceName,
  onClose,
  onInstall,
}: {
  entry: CatalogEntryData | null;
  sourceName: string;
  onClose: () => void;
  onInstall: (entry: CatalogEntryData) => void;
}) {
  const json = entry ? formatJson(entry.manifest) : "";
  return (
    <Drawer
      opened={entry !== null}
      onClose={onClose}
      position="right"
      size="min(44rem, 100%)"
      title={entry ? `Manifest of ${entry.name}` : "Manifest"}
    >
      {entry && (
        <Stack gap="sm">
          <Text size="sm">
            <Text span ff="monospace">
              {entry.id}
            </Text>{" "}
            in source {sourceName}, revision{" "}
            <Text span ff="monospace">
              {entry.revision ?? "none"}
            </Text>
            .
          </Text>
          {entry.problem && (
            <Text size="sm" c="yellow.9" role="note">
              Cannot be installed: {entry.problem.detail}
            </Text>
          )}
          {entry.description && <Text size="sm">{entry.description}</Text>}
          <EntryBadges entry={entry} />
          <Group gap="xs">
            <Button
              size="xs"
              leftSection={<IconDownload size={14} aria-hidden />}
              onClick={() => onInstall(entry)}
              disabled={entry.problem !== null}
            >
              {isInstalledAnywhere(entry) ? "Install again" : "Install"}
            </Button>
            <CopyButton value={json}>
              {({ copied, copy }) => (
                <Button
                  size="xs"
                  variant={copied ? "filled" : "default"}
                  color={copied ? "teal" : undefined}
                  leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
                  onClick={copy}
                >
                  {copied ? "Copied" : "Copy JSON"}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Code
            block
            aria-label={`Manifest of ${entry.name}, JSON`}
            data-testid="manifest-preview"
            style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}
          >
            {json}
          </Code>
        </Stack>
      )}
    </Drawer>
  );
}
