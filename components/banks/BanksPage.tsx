"use client";
import { Anchor, Code, Group, Stack, Text } from "@mantine/core";
import Link from "next/link";
import { useConsoleUser } from "@/components/console/console-user";
import { ListSearch, useListSearch } from "@/components/console/ListSearch";
import { PageHeader } from "@/components/console/PageHeader";
import { QueryView } from "@/components/console/QueryView";
import { ResourceTable } from "@/components/console/ResourceTable";
import { EmptyList } from "@/components/console/states";
import { Table } from "@/components/console/Table";
import { withUrlState } from "@/components/console/url-state";
import { formatTimestamp } from "@/lib/client/format";
import { useBanks } from "@/lib/client/hooks/banks";
import { matchesSearch } from "@/lib/client/search";
import { plural } from "@/lib/shared/plural";
import { BehindBadge } from "./BehindBadge";
import { bankHref } from "./links";
import { BANKS_LIST_STATES, NewBankButton } from "./NewBankButton";

/** Banks: every bank for admins, your own for members, with owner and provenance. */
function BanksPageView() {
  const user = useConsoleUser();
  const banks = useBanks();
  const [search, setSearch] = useListSearch();
  const isAdmin = user.role === "admin";
  return (
    <>
      <PageHeader
        title="Banks"
        description={
          isAdmin
            ? "Every memory bank on this server, with its owner and the template last applied to it."
            : "Your memory banks and the template last applied to each."
        }
        actions={<NewBankButton />}
      />
      <QueryView query={banks} {...BANKS_LIST_STATES}>
        {(data) => {
          const shown = data.banks.filter((b) => matchesSearch(search, b.bank_id, b.name, b.owner, b.last_applied?.template));
          const caption = isAdmin ? "All banks, by id" : "Your banks, by id";
          return (
            <>
              <ListSearch label="banks" placeholder="Id, name, owner or template" value={search} onChange={setSearch} />
              {shown.length === 0 ? (
                <EmptyList title="No banks match" description="Try other words, or clear the search." />
              ) : (
                <ResourceTable
                  minWidth={340}
                  striped
                  highlightOnHover
                  verticalSpacing="sm"
                  testId="banks-table"
                  caption={search ? `${shown.length} of ${plural(data.banks.length, "bank")}, by id` : caption}
                  columns={[
                    { label: "Bank" },
                    { label: "Owner", visibleFrom: "sm" },
                    { label: "Last applied template" },
                    { label: "Updated", visibleFrom: "md" },
                  ]}
                >
                  {shown.map((bank) => (
                    <Table.Tr key={bank.bank_id}>
                      <Table.Th scope="row">
                        <Stack gap={0}>
                          <Anchor component={Link} href={bankHref(bank.bank_id)} fw={600} size="sm">
                            {bank.name}
                          </Anchor>
                          {bank.name !== bank.bank_id && (
                            <Text size="xs" c="dimmed" ff="monospace">
                              {bank.bank_id}
                            </Text>
                          )}
                          <Text size="xs" c="dimmed" hiddenFrom="sm">
                            owner {bank.owner ?? "—"}
                          </Text>
                        </Stack>
                      </Table.Th>
                      <Table.Td visibleFrom="sm">
                        <Text size="sm">{bank.owner ?? "—"}</Text>
                      </Table.Td>
                      <Table.Td>
                        {bank.last_applied ? (
                          <Stack gap={0}>
                            <Group gap={6} wrap="wrap">
                              <Code style={{ wordBreak: "break-all" }}>{bank.last_applied.template}</Code>
                              {bank.behind && <BehindBadge newest={bank.newest_version} />}
                            </Group>
                            <Text size="xs" c="dimmed">
                              {bank.last_applied.template_version !== null && `version ${bank.last_applied.template_version}, `}
                              {bank.last_applied.source_revision
                                ? `revision ${bank.last_applied.source_revision}`
                                : "no revision (hand-made)"}
                            </Text>
                          </Stack>
                        ) : (
                          <Text size="sm" c="dimmed">
                            none
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td visibleFrom="md">
                        <Text size="sm">{formatTimestamp(bank.updated_at)}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </ResourceTable>
              )}
            </>
          );
        }}
      </QueryView>
    </>
  );
}

export const BanksPage = withUrlState(BanksPageView);
