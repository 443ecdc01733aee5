"use client";
import { Badge, Stack, Text } from "@mantine/core";
import type { WebhookData } from "@/lib/client/hooks/webhooks";
import { failingSentence } from "./status";

/** Active, paused or failing, as a badge, with why when it fails. */
export function WebhookStatus({ webhook }: { webhook: WebhookData }) {
  const failing = failingSentence(webhook);
  const badge = webhook.active ? (
    failing ? (
      <Badge color="red" variant="light">
        failing
      </Badge>
    ) : (
      <Badge color="green" variant="light">
        active
      </Badge>
    )
  ) : (
    <Badge color="gray">paused</Badge>
  );
  return (
    <Stack gap={4} align="flex-start" data-testid="webhook-status">
      {badge}
      {failing && (
        <Text size="xs" c="red" style={{ wordBreak: "break-word" }}>
          {failing}
        </Text>
      )}
    </Stack>
  );
}
