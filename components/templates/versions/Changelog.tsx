"use client";
import { Anchor, Group, Stack, Text } from "@mantine/core";
import Link from "next/link";
import { SectionCard } from "@/components/console/SectionCard";
import { ErrorState, LoadingState } from "@/components/console/states";
import { formatTimestamp } from "@/lib/client/format";
import { useTemplateVersionContents, type VersionData } from "@/lib/client/hooks/version-contents";
import { useTemplateVersions, type VersionSummaryData } from "@/lib/client/hooks/versions";
import { describeError } from "@/lib/client/problem";
import type { ScopeKind } from "@/lib/contracts/scope";
import { templateVersionsPath } from "../paths";
import { describeUpdate } from "../update-summary";
import { ActionBadge } from "./ActionBadge";

/** How many of the newest versions the changelog lists; the Versions page has them all. */
const SHOWN = 5;

/** A line of what a version changed against the one before it (null while either loads). */
function whatChanged(v: VersionSummaryData, content: VersionData | undefined, before: VersionData | undefined, hasBefore: boolean) {
  if (!hasBefore) {
    if (v.version > 1) return "Earlier versions are no longer kept.";
    return v.action === "install" ? "First version, as its source held it." : "First version.";
  }
  if (!content || !before) return null;
  const changes = describeUpdate(before, content);
  if (changes.length === 0) return "No change to the content.";
  const line = changes.join("; ");
  return `${line[0]!.toUpperCase()}${line.slice(1)}.`;
}

/**
 * The template's newest versions, each with its date, what wrote it and what it changed,
 * derived from its content and the version's before it ("2 directives changed; description
 * changed"), with a link to the Versions page (every kept version, comparisons, rollback).
 */
export function Changelog({ scope, id }: { scope: ScopeKind; id: string }) {
  const versions = useTemplateVersions(scope, id);
  const list = versions.data?.versions ?? [];
  const shown = list.slice(0, SHOWN);
  // The version just before the oldest shown, to say what that one changed.
  const compared = list.slice(0, SHOWN + 1).map((v) => v.version);
  const contents = useTemplateVersionContents(scope, id, compared);
  return (
    <SectionCard title="Changelog" data-testid="template-changelog">
      {versions.isPending ? (
        <LoadingState label="Loading the versions…" />
      ) : versions.isError ? (
        <ErrorState title="Could not load the versions" error={versions.error} onRetry={() => versions.refetch()} />
      ) : (
        <Stack gap="sm">
          <Stack component="ol" gap="sm" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label="Newest versions">
            {shown.map((v, i) => {
              const line = whatChanged(v, contents[i]?.data, contents[i + 1]?.data, i + 1 < list.length);
              const failed = contents[i]?.error ?? contents[i + 1]?.error;
              return (
                <li key={v.version} data-testid={`changelog-version-${v.version}`}>
                  <Group gap={8} wrap="wrap">
                    <Text size="sm" fw={600} style={{ whiteSpace: "nowrap" }}>
                      Version {v.version}
                    </Text>
                    <ActionBadge version={v} />
                    <Text size="sm" c="dimmed">
                      <time dateTime={v.created_at}>{formatTimestamp(v.created_at)}</time>
                    </Text>
                  </Group>
                  <Text size="sm" data-testid="changelog-changes">
                    {line ?? (failed ? `Could not read this version: ${describeError(failed)}` : "Reading what changed…")}
                  </Text>
                </li>
              );
            })}
          </Stack>
          <Anchor component={Link} href={templateVersionsPath(scope, id)} size="sm">
            {list.length > SHOWN ? `All ${list.length} versions: compare any two, roll back` : "Versions: compare any two, roll back"}
          </Anchor>
        </Stack>
      )}
    </SectionCard>
  );
}
