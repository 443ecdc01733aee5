"use client";
import { Badge, Button, Code, Drawer, Group, Stack, Text } from "@mantine/core";
import { IconArrowBackUp } from "@tabler/icons-react";
import { ErrorState, LoadingState } from "@/components/console/states";
import { Table } from "@/components/console/Table";
import { formatTimestamp } from "@/lib/client/format";
import { useTemplateVersion, type VersionSummaryData } from "@/lib/client/hooks/versions";
import type { ScopeKind } from "@/lib/contracts/scope";
import { DETAIL_KEYS, detailLabel, showValue } from "../details-form";
import { formatJson } from "../json-text";
import { ActionBadge } from "./ActionBadge";

interface Props {
  scope: ScopeKind;
  id: string;
  /** The version shown; null when closed. */
  version: VersionSummaryData | null;
  isCurrent: boolean;
  onClose: () => void;
  onRollback: (v: VersionSummaryData) => void;
}

/** One version's whole content, read-only: its details and its manifest. */
export function VersionDrawer({ scope, id, version, isCurrent, onClose, onRollback }: Props) {
  const content = useTemplateVersion(scope, id, version?.version ?? null);
  return (
    <Drawer
      opened={version !== null}
      onClose={onClose}
      position="right"
      size="min(44rem, 100%)"
      title={version ? `Version ${version.version} of ${id}` : "Version"}
    >
      {version && (
        <Stack gap="sm">
          <Group gap={6}>
            <ActionBadge version={version} />
            {isCurrent && (
              <Badge color="green" variant="filled">
                Current
              </Badge>
            )}
            {version.locally_modified && (
              <Badge color="yellow" variant="light">
                Edited locally
              </Badge>
            )}
          </Group>
          <Text size="sm">
            Recorded {formatTimestamp(version.created_at)} by <Code>{version.actor}</Code>; source revision{" "}
            {version.source_revision ? <Code>{version.source_revision.slice(0, 8)}</Code> : "none"}.
          </Text>
          {!isCurrent && (
            <Group>
              <Button
                size="xs"
                variant="light"
                color="red"
                leftSection={<IconArrowBackUp size={14} aria-hidden />}
                onClick={() => onRollback(version)}
              >
                Roll back to version {version.version}
              </Button>
            </Group>
          )}
          {content.isError ? (
            <ErrorState title={`Could not load version ${version.version}`} error={content.error} onRetry={() => content.refetch()} />
          ) : !content.data ? (
            <LoadingState label={`Loading version ${version.version}…`} />
          ) : (
            <>
              <Table layout="fixed" withTableBorder withColumnBorders data-testid="version-details">
                <Table.Tbody>
                  {DETAIL_KEYS.map((f) => (
                    <Table.Tr key={f}>
                      <Table.Th scope="row" w={120}>
                        {detailLabel(f)}
                      </Table.Th>
                      <Table.Td>{showValue(content.data[f])}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Code
                block
                aria-label={`Manifest of version ${version.version}, JSON`}
                data-testid="version-manifest"
                style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}
              >
                {formatJson(content.data.manifest)}
              </Code>
            </>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
