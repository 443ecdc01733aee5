"use client";
import { Anchor, Button, Code, Group, NativeSelect, Stack, Text, TextInput } from "@mantine/core";
import Link from "next/link";
import { parseAsString, useQueryStates } from "nuqs";
import { type FormEvent, useState } from "react";
import type { z } from "zod";
import { useConsoleUser } from "@/components/console/console-user";
import { PageHeader } from "@/components/console/PageHeader";
import { QueryView } from "@/components/console/QueryView";
import { ResourceTable } from "@/components/console/ResourceTable";
import { Table } from "@/components/console/Table";
import { withUrlState } from "@/components/console/url-state";
import { FormFieldset } from "@/components/forms/FormFieldset";
import { formatTimestamp } from "@/lib/client/format";
import { type AuditFilters, useAuditLog } from "@/lib/client/hooks/audit";
import { AUDIT_ACTIONS } from "@/lib/contracts/audit/actions";
import type { AuditEntry } from "@/lib/contracts/audit/schemas";
import { consolePageOf } from "./audit-links";

const FILTER_KEYS = ["actor", "action", "target"] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/**
 * What the page shows, all in the URL: the filters and the page (the cursor it starts at). A reload
 * shows the same entries; every Filter and page turn is a history entry, so Back returns to the one before.
 */
const auditParams = {
  actor: parseAsString,
  action: parseAsString,
  target: parseAsString,
  cursor: parseAsString,
};

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

/** The filter form: edits a draft, applied (to the URL) on Filter. Keyed by the applied filters, so Back resets it. */
function AuditFilterForm({ applied, onApply }: { applied: AuditFilters; onApply: (filters: Record<FilterKey, string>) => void }) {
  const [draft, setDraft] = useState<Record<FilterKey, string>>({
    actor: applied.actor ?? "",
    action: applied.action ?? "",
    target: applied.target ?? "",
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form onSubmit={apply} aria-label="Filter the audit log">
      <FormFieldset>
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
      </FormFieldset>
    </form>
  );
}

/** Admin › Audit log: who wrote what and when, filtered by actor, action and target (kept in the URL), newest first. */
function AuditPageView() {
  const me = useConsoleUser();
  const [state, setState] = useQueryStates(auditParams, { history: "push" });
  const applied: AuditFilters = Object.fromEntries(
    FILTER_KEYS.map((key) => [key, state[key] || undefined]).filter(([, value]) => value !== undefined),
  );
  const log = useAuditLog(applied, state.cursor);
  const apply = (draft: Record<FilterKey, string>) =>
    // New filters start again at the newest entry.
    setState({ actor: draft.actor.trim() || null, action: draft.action || null, target: draft.target.trim() || null, cursor: null });
  const next = log.data?.next_cursor ?? null;

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every successful write through the API and the console: who made it, what it did and to which resource. Kept for 365 days."
      />
      <AuditFilterForm key={JSON.stringify(applied)} applied={applied} onApply={apply} />
      <QueryView
        query={log}
        loading="Loading the audit log…"
        errorTitle="Could not load the audit log"
        isEmpty={(data) => data.entries.length === 0}
        empty={{
          title: "No entries",
          description: state.cursor ? "No older write matches these filters." : "No write matches these filters.",
        }}
      >
        {(data) => (
          <Stack gap="sm">
            <AuditTable entries={data.entries} viewerId={me.id} />
            {(state.cursor || next) && (
              <Group justify="center" role="navigation" aria-label="Audit log pages">
                {state.cursor && (
                  <Button variant="default" onClick={() => setState({ cursor: null })}>
                    Newest entries
                  </Button>
                )}
                {next && (
                  <Button variant="light" loading={log.isPlaceholderData} onClick={() => setState({ cursor: next })}>
                    Older entries
                  </Button>
                )}
              </Group>
            )}
          </Stack>
        )}
      </QueryView>
    </>
  );
}

export const AuditPage = withUrlState(AuditPageView);
