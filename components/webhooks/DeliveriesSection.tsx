"use client";
import { Badge, Button, Code, Group, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { lazyModal } from "@/components/console/lazy";
import { QueryView } from "@/components/console/QueryView";
import { ResourceTable } from "@/components/console/ResourceTable";
import { RowActions } from "@/components/console/RowActions";
import { SectionCard } from "@/components/console/SectionCard";
import { Table } from "@/components/console/Table";
import { formatTimestamp } from "@/lib/client/format";
import { type DeliveryData, useDeliveries, useRedeliver } from "@/lib/client/hooks/webhooks";
import { describeError } from "@/lib/client/problem";
import type { ScopeKind } from "@/lib/contracts/scope";
import { DELIVERY_LOG_DAYS } from "@/lib/contracts/webhooks/events";
import { DELIVERY_STATUS_COLOR } from "./status";

// The payload and the answer load with the dialog that shows them, not with the page.
const DeliveryDrawer = lazyModal(() => import("./DeliveryDrawer").then((m) => m.DeliveryDrawer));

/** The attempt in a few words, to name its row: "webhook.ping, attempt 2". */
const attemptName = (delivery: DeliveryData) => `${delivery.type}, attempt ${delivery.attempt}`;

/**
 * A webhook's delivery log, newest first, a page at a time: each attempt's status, the receiver's
 * answer and how long it took; Details shows the payload and the answer, Redeliver sends the event again.
 */
export function DeliveriesSection({ scope, webhookId }: { scope: ScopeKind; webhookId: string }) {
  const [cursor, setCursor] = useState<string | null>(null);
  const deliveries = useDeliveries(scope, webhookId, cursor);
  const redeliver = useRedeliver(scope);
  // Kept once closed, so the dialog does not go blank while it fades out.
  const [shown, setShown] = useState<DeliveryData | null>(null);
  const [showing, setShowing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const next = deliveries.data?.next_cursor ?? null;

  const send = async (delivery: DeliveryData) => {
    setFailure(null);
    try {
      await redeliver.mutateAsync({ params: { webhook_id: webhookId, delivery_id: delivery.id } });
      // The new attempt is the newest: shown on the first page.
      setCursor(null);
    } catch (error) {
      setFailure(`Could not redeliver: ${describeError(error)}`);
    }
  };

  return (
    <SectionCard title="Deliveries" data-testid="webhook-deliveries">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Every attempt of the last {DELIVERY_LOG_DAYS} days, newest first. A failed one is tried again on its own, a few times over about a
          day and a half; Redeliver sends its event again now.
        </Text>
        {failure && (
          <Text size="sm" c="red" role="alert">
            {failure}
          </Text>
        )}
        <QueryView
          query={deliveries}
          loading="Loading deliveries…"
          errorTitle="Could not load the deliveries"
          isEmpty={(page) => page.deliveries.length === 0}
          empty={{ title: "No deliveries yet", description: "Ping the webhook to send it one now." }}
        >
          {(page) => (
            <ResourceTable
              minWidth={560}
              stacked
              striped
              verticalSpacing="xs"
              testId="deliveries-table"
              caption="Delivery attempts, newest first"
              columns={[
                { label: "Event" },
                { label: "Status" },
                { label: "Response" },
                { label: "Duration" },
                { label: "At", visibleFrom: "sm" },
              ]}
              actions
            >
              {page.deliveries.map((delivery) => (
                <Table.Tr key={delivery.id} data-testid="delivery-row">
                  <Table.Th scope="row">
                    <Code>{delivery.type}</Code>
                    <Text size="xs" c="dimmed">
                      attempt {delivery.attempt}
                    </Text>
                  </Table.Th>
                  <Table.Td data-label="Status" maw={280}>
                    <Badge color={DELIVERY_STATUS_COLOR[delivery.status]} variant="light" data-testid="delivery-status">
                      {delivery.status}
                    </Badge>
                    {delivery.error && (
                      <Text size="xs" c="red" style={{ wordBreak: "break-word" }}>
                        {delivery.error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label="Response">
                    <Text size="sm" data-testid="delivery-response">
                      {delivery.response_status ?? "none"}
                    </Text>
                  </Table.Td>
                  <Table.Td data-label="Duration">
                    <Text size="sm">{delivery.duration_ms === null ? "–" : `${delivery.duration_ms} ms`}</Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm">{formatTimestamp(delivery.at)}</Text>
                  </Table.Td>
                  <RowActions
                    name={attemptName(delivery)}
                    actions={[
                      {
                        label: "Details",
                        ariaLabel: `Details of ${attemptName(delivery)}`,
                        onClick: () => {
                          setShown(delivery);
                          setShowing(true);
                        },
                      },
                      ...(delivery.status === "pending"
                        ? []
                        : [{ label: "Redeliver", ariaLabel: `Redeliver ${attemptName(delivery)}`, onClick: () => void send(delivery) }]),
                    ]}
                  />
                </Table.Tr>
              ))}
            </ResourceTable>
          )}
        </QueryView>
        {(cursor || next) && (
          <Group gap="sm">
            {cursor && (
              <Button variant="default" size="xs" onClick={() => setCursor(null)}>
                Newest deliveries
              </Button>
            )}
            {next && (
              <Button variant="light" size="xs" loading={deliveries.isPlaceholderData} onClick={() => setCursor(next)}>
                Older deliveries
              </Button>
            )}
          </Group>
        )}
      </Stack>
      <DeliveryDrawer scope={scope} webhookId={webhookId} delivery={shown} opened={showing} onClose={() => setShowing(false)} />
    </SectionCard>
  );
}
