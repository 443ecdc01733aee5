"use client";
import { Group, NativeSelect, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { SectionCard } from "@/components/console/SectionCard";
import { ErrorState, LoadingState } from "@/components/console/states";
import { formatTimestamp } from "@/lib/client/format";
import { useTemplateVersion, type VersionSummaryData } from "@/lib/client/hooks/versions";
import type { ScopeKind } from "@/lib/contracts/scope";
import { formatJson } from "../json-text";
import { ManifestDiff } from "../ManifestDiff";
import { MetadataDiff } from "../MetadataDiff";
import { versionActionLabel } from "./ActionBadge";

interface Props {
  scope: ScopeKind;
  id: string;
  /** Newest first; the first is the current content. */
  versions: VersionSummaryData[];
  from: number;
  to: number;
  onChange: (pair: { from?: number; to?: number }) => void;
}

/** Two versions of a template side by side: the details that differ and a diff of the manifests. */
export function VersionCompare({ scope, id, versions, from, to, onChange }: Props) {
  const current = versions[0]!.version;
  const name = (n: number) => `version ${n}${n === current ? " (current)" : ""}`;
  const options = versions.map((v) => ({
    value: String(v.version),
    label: `Version ${v.version}${v.version === current ? " (current)" : ""} · ${versionActionLabel(v)} · ${formatTimestamp(v.created_at)}`,
  }));
  return (
    <SectionCard title="Compare versions">
      {versions.length < 2 ? (
        <Text size="sm" c="dimmed">
          There is only one version so far; a change to the template records the next one.
        </Text>
      ) : (
        <Stack gap="md">
          <Group gap="sm" align="flex-end" grow preventGrowOverflow={false}>
            <NativeSelect
              label="Compare from"
              data={options}
              value={String(from)}
              onChange={(e) => onChange({ from: Number(e.currentTarget.value) })}
              miw={220}
            />
            <NativeSelect
              label="Compare to"
              data={options}
              value={String(to)}
              onChange={(e) => onChange({ to: Number(e.currentTarget.value) })}
              miw={220}
            />
          </Group>
          {from === to ? (
            <Text size="sm" c="dimmed" role="status">
              Pick two different versions to see what changed between them.
            </Text>
          ) : (
            <Differences scope={scope} id={id} from={from} to={to} fromLabel={name(from)} toLabel={name(to)} />
          )}
        </Stack>
      )}
    </SectionCard>
  );
}

function Differences({
  scope,
  id,
  from,
  to,
  fromLabel,
  toLabel,
}: {
  scope: ScopeKind;
  id: string;
  from: number;
  to: number;
  fromLabel: string;
  toLabel: string;
}) {
  const before = useTemplateVersion(scope, id, from);
  const after = useTemplateVersion(scope, id, to);
  if (before.isError || after.isError) {
    return (
      <ErrorState
        title="Could not load the versions to compare"
        error={before.error ?? after.error}
        onRetry={() => {
          if (before.isError) before.refetch();
          if (after.isError) after.refetch();
        }}
      />
    );
  }
  if (!before.data || !after.data) return <LoadingState label={`Loading ${fromLabel} and ${toLabel}…`} />;
  return (
    <Stack gap="md" data-testid="version-differences">
      <Part title="Details">
        <MetadataDiff before={before.data} after={after.data} beforeLabel={capitalize(fromLabel)} afterLabel={capitalize(toLabel)} />
      </Part>
      <Part title="Manifest">
        <ManifestDiff
          before={formatJson(before.data.manifest)}
          after={formatJson(after.data.manifest)}
          beforeLabel={fromLabel}
          afterLabel={toLabel}
        />
      </Part>
    </Stack>
  );
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
