"use client";
import { Anchor, Badge, Button, Group, Stack, Text } from "@mantine/core";
import { IconRocket } from "@tabler/icons-react";
import Link from "next/link";
import { useState } from "react";
import { bankHref } from "@/components/banks/links";
import { lazyModal } from "@/components/console/lazy";
import { QueryView } from "@/components/console/QueryView";
import { ResourceTable } from "@/components/console/ResourceTable";
import { SectionCard } from "@/components/console/SectionCard";
import { Table } from "@/components/console/Table";
import { endpoints } from "@/lib/client/endpoints";
import { formatTimestamp } from "@/lib/client/format";
import { useBanks } from "@/lib/client/hooks/banks";
import { useEndpointQuery } from "@/lib/client/query";
import type { ScopeKind } from "@/lib/contracts/scope";
import { plural } from "@/lib/shared/plural";

const RolloutModal = lazyModal(() => import("./RolloutModal").then((m) => m.RolloutModal));

/**
 * The template's newest version number, for those who may read its versions (the template's
 * managers); null for the others, who roll out "the current version" all the same.
 */
function useNewestVersion(scope: ScopeKind, id: string, canReadVersions: boolean): number | null {
  const versions = useEndpointQuery(
    endpoints.templateLifecycle[scope].versions,
    { params: { template_id: id } },
    { enabled: canReadVersions, refetchOnMount: "always" },
  );
  return versions.data?.versions[0]?.version ?? null;
}

/**
 * "Banks from this template" (CONTRACT §16): the banks you may see whose last applied template is
 * this one, which of them are behind, and a rollout of the current version to those.
 */
export function TemplateBanks({ scope, id, canReadVersions }: { scope: ScopeKind; id: string; canReadVersions: boolean }) {
  const ref = `${scope}/${id}`;
  const banks = useBanks(ref);
  const newest = useNewestVersion(scope, id, canReadVersions);
  /** The banks of the rollout dialog, fixed when it opens (the list refreshes as banks catch up); null: closed. */
  const [targets, setTargets] = useState<string[] | null>(null);
  return (
    <SectionCard title="Banks from this template" data-testid="template-banks">
      <QueryView
        query={banks}
        loading="Loading the banks made from this template…"
        errorTitle="Could not load the banks made from this template"
        isEmpty={(data) => data.banks.length === 0}
        empty={{
          title: "No banks from this template yet",
          description: "Banks whose last applied template is this one are listed here.",
        }}
      >
        {(data) => {
          const behind = data.banks.filter((bank) => bank.behind);
          const version = newest === null ? "the current version" : `version ${newest}`;
          return (
            <Stack gap="sm">
              <Group justify="space-between" gap="sm">
                <Text size="sm" data-testid="template-banks-summary">
                  {plural(data.banks.length, "bank")} last applied from {ref};{" "}
                  {behind.length === 0 ? "all up to date." : `${behind.length} behind.`}
                </Text>
                {/* Nothing behind, nothing to roll out: the summary says so instead of a dead button. */}
                {behind.length > 0 && (
                  <Button leftSection={<IconRocket size={16} aria-hidden />} onClick={() => setTargets(behind.map((bank) => bank.bank_id))}>
                    Roll out {version} to {plural(behind.length, "bank")}
                  </Button>
                )}
              </Group>
              <ResourceTable
                minWidth={320}
                verticalSpacing="xs"
                testId="template-banks-table"
                caption={`Banks last applied from ${ref}, by id`}
                columns={[{ label: "Bank" }, { label: "Version applied" }, { label: "Applied", visibleFrom: "sm" }]}
              >
                {data.banks.map((bank) => (
                  <Table.Tr key={bank.bank_id}>
                    <Table.Th scope="row">
                      <Anchor component={Link} href={bankHref(bank.bank_id)} size="sm" fw={600}>
                        {bank.name}
                      </Anchor>
                      {bank.name !== bank.bank_id && (
                        <Text size="xs" c="dimmed" ff="monospace">
                          {bank.bank_id}
                        </Text>
                      )}
                    </Table.Th>
                    <Table.Td>
                      <Group gap={6}>
                        <Text size="sm">{bank.last_applied?.template_version ?? "—"}</Text>
                        {bank.behind && (
                          <Badge color="orange" variant="light" size="sm">
                            Behind
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td visibleFrom="sm">
                      <Text size="sm">{bank.last_applied ? formatTimestamp(bank.last_applied.applied_at) : "—"}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </ResourceTable>
              <RolloutModal
                opened={targets !== null}
                onClose={() => setTargets(null)}
                template={ref}
                version={version}
                bankIds={targets ?? []}
              />
            </Stack>
          );
        }}
      </QueryView>
    </SectionCard>
  );
}
