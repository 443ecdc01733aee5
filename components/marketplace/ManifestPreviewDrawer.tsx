"use client";
import { Button, Code, CopyButton, Drawer, Group, Stack, Text, Title } from "@mantine/core";
import { IconCheck, IconCopy, IconDownload } from "@tabler/icons-react";
import { formatJson } from "@/components/templates/json-text";
import { TemplateSummary } from "@/components/templates/TemplateSummary";
import type { CatalogEntryData } from "@/lib/client/hooks/catalog";
import type { SourceData } from "@/lib/client/hooks/sources";
import { LastFetched } from "./CatalogStatus";
import { isInstalledAnywhere } from "./installed";

/**
 * A catalog entry before installing it: its details, what it holds (the template page's summary)
 * and its manifest as formatted JSON. A catalog lists each template's current revision only, with
 * no dates or earlier versions (CONTRACT §6), so there is no changelog to show: the revision and
 * when the catalog was fetched say how current it is.
 */
export function ManifestPreviewDrawer({
  entry,
  source,
  onClose,
  onInstall,
}: {
  entry: CatalogEntryData | null;
  source: SourceData | null;
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
            in source {source?.name}, revision{" "}
            <Text span ff="monospace">
              {entry.revision ?? "none"}
            </Text>
            .
          </Text>
          <Text size="sm" c="dimmed" data-testid="preview-revision-note">
            The catalog lists only a template&apos;s current revision, without dates or earlier versions.
            {source && (
              <>
                {" "}
                <LastFetched source={source} />.
              </>
            )}
          </Text>
          {entry.problem && (
            <Text size="sm" c="yellow.9" role="note">
              Cannot be installed: {entry.problem.detail}
            </Text>
          )}
          {entry.description && <Text size="sm">{entry.description}</Text>}
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
          {entry.manifest && (
            <>
              <Title order={3} size="h5">
                What it holds
              </Title>
              <TemplateSummary content={entry} />
            </>
          )}
          <Title order={3} size="h5">
            Manifest
          </Title>
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
