"use client";
import { Alert, Stack, Text, Title } from "@mantine/core";
import { IconCircleCheck } from "@tabler/icons-react";
import { useRef, useState } from "react";
import { lazyDialog, lazySection } from "@/components/console/lazy";
import { SectionCard } from "@/components/console/SectionCard";
import { EmptyList, ErrorState, LoadingState } from "@/components/console/states";
import { useConfirm } from "@/components/console/useConfirm";
import { entityTagOf } from "@/lib/client/entity-tag";
import { formatTimestamp } from "@/lib/client/format";
import { useBanks } from "@/lib/client/hooks/banks";
import { useTemplate } from "@/lib/client/hooks/templates";
import { useRollbackTemplate, useTemplateVersions, type VersionSummaryData } from "@/lib/client/hooks/versions";
import type { ScopeKind } from "@/lib/contracts/scope";
import { plural } from "@/lib/shared/plural";
import { TemplateSubpageCrumbs } from "../Crumbs";
import { TemplateNotFound } from "../TemplateNotFound";
import { versionActionLabel } from "./ActionBadge";
import { VersionsTable } from "./VersionsTable";

// The comparison shows once the versions arrived (its code, with the diff, loads alongside
// them); the drawer's code loads when a version is first opened.
const VersionCompare = lazySection(
  () => import("./VersionCompare").then((m) => m.VersionCompare),
  <LoadingState label="Loading the comparison…" />,
);
const VersionDrawer = lazyDialog(
  () => import("./VersionDrawer").then((m) => m.VersionDrawer),
  (props) => props.version !== null,
  (props) => ({ ...props, version: null }),
);

/** A template's recorded versions: the list, a comparison of any two, one version's content, and rollback. */
export function VersionsPage({ scope, id }: { scope: ScopeKind; id: string }) {
  const versions = useTemplateVersions(scope, id);
  const crumbs = <TemplateSubpageCrumbs scope={scope} id={id} current="Versions" />;
  const heading = (
    <Title order={1} size="h2" mb="md">
      Versions of {id}
    </Title>
  );
  if (versions.isPending) {
    return (
      <>
        {crumbs}
        {heading}
        <LoadingState label={`Loading the versions of ${id}…`} />
      </>
    );
  }
  if (versions.isError) {
    return (
      <>
        {crumbs}
        {versions.error.status === 404 ? (
          <TemplateNotFound scope={scope} id={id} />
        ) : (
          <>
            {heading}
            <ErrorState title="Could not load the versions" error={versions.error} onRetry={() => versions.refetch()} />
          </>
        )}
      </>
    );
  }
  return (
    <>
      {crumbs}
      {heading}
      {versions.data.versions.length === 0 ? (
        <EmptyList title="No versions recorded" description={`${id} has no recorded versions; its next change will record one.`} />
      ) : (
        <History scope={scope} id={id} versions={versions.data.versions} />
      )}
    </>
  );
}

function History({ scope, id, versions }: { scope: ScopeKind; id: string; versions: VersionSummaryData[] }) {
  const current = versions[0]!;
  const rollback = useRollbackTemplate(scope, id);
  // The template as it is, whose version (ETag) a rollback is made against.
  const template = useTemplate(scope, id);
  const banks = useBanks(`${scope}/${id}`);
  const [rolledBack, setRolledBack] = useState<{ to: number; recorded: number | null } | null>(null);
  // null: the default pair, the version before the current one against the current one.
  const [compared, setCompared] = useState<{ from: number; to: number } | null>(null);
  const [viewing, setViewing] = useState<VersionSummaryData | null>(null);
  const compareRef = useRef<HTMLDivElement>(null);

  const listed = (n: number | undefined) => (versions.some((v) => v.version === n) ? n : undefined);
  const from = listed(compared?.from) ?? versions[1]?.version ?? current.version;
  const to = listed(compared?.to) ?? current.version;

  const confirmRollback = useConfirm<VersionSummaryData>({
    title: `Roll back ${id}?`,
    confirmLabel: "Roll back",
    message: (v) => (
      <>
        The template&apos;s content (name, description, category, integrations, tags and manifest), its source revision and its
        &ldquo;edited locally&rdquo; mark become those of <strong>version {v.version}</strong> ({versionActionLabel(v).toLowerCase()}{" "}
        {formatTimestamp(v.created_at)}). This is recorded as a new version, so you can undo it by rolling back again.
        <BanksOfRollback count={banks.data?.banks.length} restored={v.version} />
      </>
    ),
    onConfirm: async (v) => {
      const { recorded } = await rollback.rollback(v.version, entityTagOf(template.data));
      setRolledBack({ to: v.version, recorded });
      setCompared(null); // the default pair now shows what the rollback changed
    },
  });

  const compareWithCurrent = (v: VersionSummaryData) => {
    setCompared({ from: v.version, to: current.version });
    compareRef.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  };

  return (
    <Stack gap="lg">
      {rolledBack && (
        <Alert
          color="green"
          icon={<IconCircleCheck aria-hidden />}
          role="status"
          title="Rolled back"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setRolledBack(null)}
        >
          Rolled back to version {rolledBack.to}
          {rolledBack.recorded !== null ? `; this is version ${rolledBack.recorded}` : ""}.
        </Alert>
      )}
      <SectionCard title="History">
        <VersionsTable versions={versions} onView={setViewing} onCompare={compareWithCurrent} onRollback={confirmRollback.ask} />
      </SectionCard>
      <div ref={compareRef} style={{ scrollMarginTop: "var(--app-shell-header-offset, 4rem)" }}>
        <VersionCompare
          scope={scope}
          id={id}
          versions={versions}
          from={from}
          to={to}
          onChange={(next) => setCompared({ from, to, ...next })}
        />
      </div>
      <VersionDrawer
        scope={scope}
        id={id}
        version={viewing}
        isCurrent={viewing?.version === current.version}
        onClose={() => setViewing(null)}
        onRollback={(v) => {
          setViewing(null);
          confirmRollback.ask(v);
        }}
      />
      {confirmRollback.modal}
    </Stack>
  );
}

/**
 * What a rollback does to the banks made from the template: nothing until it is rolled out to them,
 * and then it takes them back. Said once the banks are known (nothing while they load or failed).
 */
function BanksOfRollback({ count, restored }: { count: number | undefined; restored: number }) {
  if (count === undefined) return null;
  const one = count === 1;
  return (
    <Text span display="block" size="sm" mt="sm" data-testid="rollback-banks">
      {count === 0
        ? "No bank you can see was made from this template."
        : `${plural(count, "bank was", "banks were")} made from this template: ${one ? "it keeps its" : "they keep their"} content until you roll the new version out to ${one ? "it" : "them"}, which takes ${one ? "it" : "them"} back to version ${restored}'s content.`}
    </Text>
  );
}
