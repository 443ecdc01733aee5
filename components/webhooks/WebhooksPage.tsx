"use client";
import { Anchor, Button, Text } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import Link from "next/link";
import { useState } from "react";
import { lazyModal } from "@/components/console/lazy";
import { PageHeader } from "@/components/console/PageHeader";
import { QueryView } from "@/components/console/QueryView";
import { ResourceTable } from "@/components/console/ResourceTable";
import { RowActions } from "@/components/console/RowActions";
import { Table } from "@/components/console/Table";
import { formatTimestamp } from "@/lib/client/format";
import { useWebhooks } from "@/lib/client/hooks/webhooks";
import type { ScopeKind } from "@/lib/contracts/scope";
import { eventsSummary } from "./events";
import { webhookPath } from "./paths";
import { useWebhookActions } from "./useWebhookActions";
import { WebhookStatus } from "./WebhookStatus";

const AddWebhookModal = lazyModal(() => import("./AddWebhookModal").then((m) => m.AddWebhookModal));

const WORDS = {
  personal: {
    title: "Webhooks",
    description: "Where the server sends the events about your templates, banks and sources as they happen: signed, retried, logged.",
    noun: "webhooks",
    caption: "Your webhooks, oldest first",
    empty: "Add a webhook to have events about what you may read POSTed to your own endpoint, so nothing has to poll.",
  },
  server: {
    title: "Server webhooks",
    description: "Where the server sends every event, the audit entries and expiring keys too: signed, retried, logged.",
    noun: "server webhooks",
    caption: "Server webhooks, oldest first",
    empty: "A server webhook is sent the events of every user, and the admins' own: each audit entry, each key about to expire.",
  },
} as const;

/** The webhooks of one scope: each with what it is sent and how its deliveries go, a link to them, and what can be done to it. */
export function WebhooksPage({ scope }: { scope: ScopeKind }) {
  const webhooks = useWebhooks(scope);
  const { actions, problem, dialogs } = useWebhookActions(scope);
  const [adding, setAdding] = useState(false);
  const words = WORDS[scope];
  return (
    <>
      <PageHeader
        title={words.title}
        description={words.description}
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
            Add webhook
          </Button>
        }
      />
      {problem}
      <QueryView
        query={webhooks}
        loading={`Loading ${words.noun}…`}
        errorTitle={`Could not load ${words.noun}`}
        isEmpty={(list) => list.length === 0}
        empty={{ title: `No ${words.noun} yet`, description: words.empty }}
      >
        {(list) => (
          // On phones each webhook is a card: a URL needs the whole width.
          <ResourceTable
            minWidth={560}
            stacked
            striped
            verticalSpacing="sm"
            testId="webhooks-table"
            caption={words.caption}
            columns={[{ label: "URL" }, { label: "Events" }, { label: "Status" }, { label: "Added", visibleFrom: "md" }]}
            actions
          >
            {list.map((webhook) => (
              <Table.Tr key={webhook.id}>
                <Table.Th scope="row" maw={360}>
                  <Anchor component={Link} href={webhookPath(scope, webhook.id)} size="sm" fw={600} style={{ wordBreak: "break-all" }}>
                    {webhook.url}
                  </Anchor>
                  {webhook.description && (
                    <Text size="xs" c="dimmed" style={{ wordBreak: "break-word" }}>
                      {webhook.description}
                    </Text>
                  )}
                </Table.Th>
                <Table.Td data-label="Events" maw={260}>
                  <Text size="sm" style={{ wordBreak: "break-word" }}>
                    {eventsSummary(webhook.events)}
                  </Text>
                </Table.Td>
                <Table.Td data-label="Status" maw={260}>
                  <WebhookStatus webhook={webhook} />
                </Table.Td>
                <Table.Td visibleFrom="md">
                  <Text size="sm">{formatTimestamp(webhook.created_at)}</Text>
                </Table.Td>
                <RowActions
                  name={webhook.url}
                  actions={[
                    { label: "Deliveries", ariaLabel: `Deliveries of webhook ${webhook.url}`, href: webhookPath(scope, webhook.id) },
                    ...actions(webhook),
                  ]}
                />
              </Table.Tr>
            ))}
          </ResourceTable>
        )}
      </QueryView>
      <AddWebhookModal scope={scope} opened={adding} onClose={() => setAdding(false)} />
      {dialogs}
    </>
  );
}
