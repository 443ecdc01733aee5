"use client";
import { Badge, Code, Drawer, Group, Stack, Text, Title } from "@mantine/core";
import { ErrorState, LoadingState } from "@/components/console/states";
import { formatJson } from "@/components/templates/json-text";
import { formatTimestamp } from "@/lib/client/format";
import { type DeliveryData, useDelivery } from "@/lib/client/hooks/webhooks";
import type { ScopeKind } from "@/lib/contracts/scope";
import { DELIVERY_STATUS_COLOR } from "./status";

interface Props {
  scope: ScopeKind;
  webhookId: string;
  /** The attempt shown (kept once closed, while the drawer fades out). */
  delivery: DeliveryData | null;
  opened: boolean;
  onClose: () => void;
}

const CODE_STYLE = { whiteSpace: "pre-wrap", wordBreak: "break-word" } as const;

/** One delivery attempt: its outcome, the payload sent and the start of the receiver's answer. */
export function DeliveryDrawer({ scope, webhookId, delivery, opened, onClose }: Props) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="min(44rem, 100%)"
      title={delivery ? `Delivery of ${delivery.type}, attempt ${delivery.attempt}` : "Delivery"}
    >
      {delivery && <DeliveryDetails scope={scope} webhookId={webhookId} delivery={delivery} />}
    </Drawer>
  );
}

function DeliveryDetails({ scope, webhookId, delivery }: { scope: ScopeKind; webhookId: string; delivery: DeliveryData }) {
  const detail = useDelivery(scope, webhookId, delivery.id);
  if (detail.isError) return <ErrorState title="Could not load the delivery" error={detail.error} onRetry={() => detail.refetch()} />;
  if (!detail.data) return <LoadingState label="Loading the delivery…" />;
  const shown = detail.data;
  return (
    <Stack gap="sm" data-testid="delivery-details">
      <Group gap="xs">
        <Badge variant="light" color={DELIVERY_STATUS_COLOR[shown.status]}>
          {shown.status}
        </Badge>
        <Text size="sm">
          {shown.response_status === null ? "No answer" : `Answered ${shown.response_status}`}
          {shown.duration_ms !== null && ` in ${shown.duration_ms} ms`}, {formatTimestamp(shown.at)}
        </Text>
      </Group>
      {shown.error && (
        <Text size="sm" c="red" style={{ wordBreak: "break-word" }}>
          {shown.error}
        </Text>
      )}
      <Text size="sm" style={{ wordBreak: "break-all" }}>
        <Code>webhook-id</Code> {shown.event_id} (the same on every attempt of this event)
      </Text>
      <Title order={3} size="h5">
        Payload
      </Title>
      <Code block aria-label="Payload sent, JSON" data-testid="delivery-payload" style={CODE_STYLE}>
        {formatJson(shown.payload)}
      </Code>
      <Title order={3} size="h5">
        Response
      </Title>
      {shown.response_body ? (
        <Code block aria-label="Start of the receiver's answer" data-testid="delivery-response-body" style={CODE_STYLE}>
          {shown.response_body}
        </Code>
      ) : (
        <Text size="sm" c="dimmed">
          {shown.response_status === null ? "None came." : "Empty."}
        </Text>
      )}
    </Stack>
  );
}
