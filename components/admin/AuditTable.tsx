"use client";
import { Anchor, Button, Text } from "@mantine/core";
import Link from "next/link";
import { Fragment, useState } from "react";
import type { z } from "zod";
import { ResourceTable } from "@/components/console/ResourceTable";
import { Table } from "@/components/console/Table";
import { formatTimestamp } from "@/lib/client/format";
import type { AuditEntry } from "@/lib/contracts/audit/schemas";
import { AuditChanges } from "./AuditChanges";
import { actionLabel, consolePageOf, targetLabel } from "./audit-links";

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

/** The target as people read it, linked to its console page where there is one, over the path it was written at. */
function Target({ entry, viewerId }: { entry: Entry; viewerId: string }) {
  const page = consolePageOf(entry.target, entry.actor.user_id, viewerId);
  const label = targetLabel(entry);
  return (
    <>
      {page ? (
        <Anchor component={Link} href={page} size="sm">
          {label}
        </Anchor>
      ) : (
        <Text size="sm">{label}</Text>
      )}
      {label !== entry.target && (
        <Text size="xs" c="dimmed">
          {entry.target}
        </Text>
      )}
    </>
  );
}

const COLUMNS = 6;

function AuditRow({ entry, viewerId }: { entry: Entry; viewerId: string }) {
  const [open, setOpen] = useState(false);
  const recorded = entry.before !== null || entry.after !== null;
  const detailId = `audit-changes-${entry.id}`;
  return (
    <Fragment>
      <Table.Tr>
        <Table.Th scope="row">
          <Text size="sm" fw={400}>
            <time dateTime={entry.at}>{formatTimestamp(entry.at)}</time>
          </Text>
        </Table.Th>
        <Table.Td data-label="Who">
          <Who actor={entry.actor} />
        </Table.Td>
        <Table.Td data-label="Action">
          <Text size="sm">{actionLabel(entry.action)}</Text>
        </Table.Td>
        <Table.Td data-label="Target" style={{ wordBreak: "break-all" }}>
          <Target entry={entry} viewerId={viewerId} />
        </Table.Td>
        <Table.Td>
          {recorded ? (
            <Button
              variant="subtle"
              size="compact-sm"
              aria-expanded={open}
              aria-controls={open ? detailId : undefined}
              aria-label={`${open ? "Hide" : "Show"} the changes of ${actionLabel(entry.action)} at ${formatTimestamp(entry.at)}`}
              onClick={() => setOpen(!open)}
            >
              {open ? "Hide changes" : "Show changes"}
            </Button>
          ) : (
            <Text size="xs" c="dimmed">
              Not recorded
            </Text>
          )}
        </Table.Td>
        <Table.Td visibleFrom="md">
          <Text size="xs" ff="monospace" c="dimmed">
            {entry.request_id}
          </Text>
        </Table.Td>
      </Table.Tr>
      {open && (
        <Table.Tr id={detailId} data-testid="audit-changes">
          <Table.Td colSpan={COLUMNS}>
            <AuditChanges before={entry.before} after={entry.after} />
          </Table.Td>
        </Table.Tr>
      )}
    </Fragment>
  );
}

/** One page of the audit log: each write with who, what and where, its before and after one click away. */
export function AuditTable({ entries, viewerId }: { entries: Entry[]; viewerId: string }) {
  return (
    <ResourceTable
      minWidth={640}
      stacked
      striped
      verticalSpacing="sm"
      testId="audit-table"
      caption="Writes, newest first"
      columns={[
        { label: "When" },
        { label: "Who" },
        { label: "Action" },
        { label: "Target" },
        { label: "Before and after" },
        { label: "Request id", visibleFrom: "md" },
      ]}
    >
      {entries.map((entry) => (
        <AuditRow key={entry.id} entry={entry} viewerId={viewerId} />
      ))}
    </ResourceTable>
  );
}
