"use client";
import { Alert, Anchor, Button, Group, Stack, Text } from "@mantine/core";
import { IconArrowBackUp, IconRocket } from "@tabler/icons-react";
import Link from "next/link";
import { useState } from "react";
import { BehindBadge } from "@/components/banks/BehindBadge";
import { bankHref } from "@/components/banks/links";
import { rollbackWarning } from "@/components/banks/newest-version";
import { lazyModal } from "@/components/console/lazy";
import { QueryView } from "@/components/console/QueryView";
import { ResourceTable } from "@/components/console/ResourceTable";
import { SectionCard } from "@/components/console/SectionCard";
import { Table } from "@/components/console/Table";
import { formatTimestamp } from "@/lib/client/format";
import { useBanks } from "@/lib/client/hooks/banks";
import type { ScopeKind } from "@/lib/contracts/scope";
import { plural } from "@/lib/shared/plural";

import type { RolloutBank } from "./RolloutModal";

const RolloutModal = lazyModal(() => import("./RolloutModal").then((m) => m.RolloutModal));

/**
 * "Banks from this template" (CONTRACT §16): the banks you may see whose last applied template is
 * this one, which of them are behind, and a rollout of the current version to those.
 */
export function TemplateBanks({ scope, id }: { scope: ScopeKind; id: string }) {
  const ref = `${scope}/${id}`;
  const banks = useBanks(ref);
  /** The banks of the rollout dialog, fixed when it opens (the list refreshes as banks catch up); null: closed. */
  const [targets, setTargets] = useState<RolloutBank[] | null>(null);
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
          // Every bank listed was last applied from this template: each knows its newest version.
          const newest = data.banks.find((bank) => bank.newest_version)?.newest_version ?? null;
          const version = newest === null ? "the current version" : `version ${newest.version}`;
          const warning = behind.length > 0 ? rollbackWarning(newest, behind.length === 1 ? "this bank" : "these banks") : null;
          return (
            <Stack gap="sm">
              <Group justify="space-between" gap="sm">
                <Text size="sm" data-testid="template-banks-summary">
                  {plural(data.banks.length, "bank")} last applied from {ref};{" "}
                  {behind.length === 0 ? "all up to date." : `${behind.length} behind.`}
                </Text>
                {/* Nothing behind, nothing to roll out: the summary says so instead of a dead button. */}
                {behind.length > 0 && (
                  <Button
                    leftSection={<IconRocket size={16} aria-hidden />}
                    onClick={() => setTargets(behind.map(({ bank_id, name }) => ({ bank_id, name })))}
                  >
                    Roll out {version} to {plural(behind.length, "bank")}
                  </Button>
                )}
              </Group>
              {warning && (
                <Alert color="grape" variant="light" icon={<IconArrowBackUp aria-hidden />} data-testid="template-banks-rollback">
                  {warning}
                </Alert>
              )}
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
                        {bank.behind && <BehindBadge newest={bank.newest_version} />}
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
                newest={newest}
                banks={targets ?? []}
              />
            </Stack>
          );
        }}
      </QueryView>
    </SectionCard>
  );
}
