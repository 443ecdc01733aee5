"use client";
import { Anchor, Button, Code, Group, NativeSelect, Stack, Text, TextInput } from "@mantine/core";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { z } from "zod";
import { useConsoleUser } from "@/components/console/console-user";
import { PageHeader } from "@/components/console/PageHeader";
import { QueryView } from "@/components/console/QueryView";
import { ResourceTable } from "@/components/console/ResourceTable";
import { Table } from "@/components/console/Table";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import type { AuditEntry } from "@/lib/audit/schemas";
import { formatTimestamp } from "@/lib/client/format";
import { useAuditLog, type AuditFilters } from "@/lib/client/hooks/audit";
import { consolePageOf } from "./audit-links";

const FILTER_KEYS = ["actor", "action", "target"] as const;

type Entry = z.output<typeof AuditEntry>;

function Who({ actor }: { actor: Entry["actor"] }) {
  if (actor.principal_type === "user") return <Text size="sm">{actor.principal_id}</Text>;
  return (
    <>
      <Text size="sm">{actor.principal_id}</Text>
      <Text size="xs" c="dimmed">
        service account of {actor.user_id}
      </Text>
    </>
  );
}

function AuditTable({ entries, viewerId }: { entries: Entry[]; viewerId: string }) {
  return (
    <ResourceTable
      minWidth={560}
      striped
      verticalSpacing="sm"
      testId="audit-table"
      caption="Writes, newest first"
      columns={[{ label: "When" }, { label: "Who" }, { label: "Action" }, { label: "Target" }, { label: "Request id", visibleFrom: "md" }]}
    >
      {entries.map((entry) => {
        const page = consolePageOf(entry.target, entry.actor.user_id, viewerId);
        return (
          <Table.Tr key={entry.id}>
            <Table.Th scope="row">
              <Text size="sm" fw={400}>
                <time dateTime={entry.at}>{formatTimestamp(entry.at)}</time>
              </Text>
            </Table.Th>
            <Table.Td>
              <Who actor={entry.actor} />
            </Table.Td>
            <Table.Td>
              <Code>{entry.action}</Code>
            </Table.Td>
            <Table.Td style={{ wordBreak: "break-all" }}>
              {page ? (
                <Anchor component={Link} href={page} size="sm">
                  {entry.target}
                </Anchor>
              ) : (
                <Text size="sm">{entry.target}</Text>
              )}
            </Table.Td>
            <Table.Td visibleFrom="md">
              <Text size="xs" ff="monospace" c="dimmed">
                {entry.request_id}
              </Text>
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ResourceTable>
  );
}

/** Admin › Audit log: who wrote what and when, filtered by actor, action and target (kept in the URL), newest first. */
export function AuditPage() {
  const me = useConsoleUser();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const applied: AuditFilters = Object.fromEntries(
    FILTER_KEYS.map((key) => [key, searchParams.get(key) || undefined]).filter(([, value]) => value !== undefined),
  );
  const [draft, setDraft] = useState<Record<(typeof FILTER_KEYS)[number], string>>({
    actor: applied.actor ?? "",
    action: applied.action ?? "",
    target: applied.target ?? "",
  });
  const log = useAuditLog(applied);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const query = new URLSearchParams();
    for (const key of FILTER_KEYS) if (draft[key].trim()) query.set(key, draft[key].trim());
    const search = query.toString();
    router.replace(search ? `${pathname}?${search}` : pathname);
  };
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every successful write through the API and the console: who made it, what it did and to which resource. Kept for 365 days."
      />
      <form onSubmit={apply} aria-label="Filter the audit log">
        <Group align="flex-end" mb="md" gap="sm">
          <TextInput
            label="Actor"
            description="User or service account id"
            value={draft.actor}
            onChange={(e) => setDraft({ ...draft, actor: e.currentTarget.value })}
          />
          <NativeSelect
            label="Action"
            description="What was done"
            value={draft.action}
            onChange={(e) => setDraft({ ...draft, action: e.currentTarget.value })}
            data={[{ value: "", label: "Any action" }, ...AUDIT_ACTIONS.map((action) => ({ value: action, label: action }))]}
          />
          <TextInput
            label="Target"
            description="A path, and everything below it"
            placeholder="/ext/svc/admin/templates/support"
            value={draft.target}
            onChange={(e) => setDraft({ ...draft, target: e.currentTarget.value })}
            style={{ flex: "1 1 260px" }}
          />
          <Button type="submit">Filter</Button>
        </Group>
      </form>
      <QueryView
        query={{ ...log, data: log.data ? entries : undefined }}
        loading="Loading the audit log…"
        errorTitle="Could not load the audit log"
        isEmpty={(list) => list.length === 0}
        empty={{ title: "No entries", description: "No write matches these filters." }}
      >
        {(list) => (
          <Stack gap="sm">
            <AuditTable entries={list} viewerId={me.id} />
            {log.hasNextPage && (
              <Group justify="center">
                <Button variant="light" loading={log.isFetchingNextPage} onClick={() => log.fetchNextPage()}>
                  Load more
                </Button>
              </Group>
            )}
          </Stack>
        )}
      </QueryView>
    </>
  );
}
