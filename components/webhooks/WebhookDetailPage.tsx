"use client";
import { Anchor, Button, Code, Group, List, Stack, Text } from "@mantine/core";
import { IconArrowLeft, IconSend } from "@tabler/icons-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { PageHeader } from "@/components/console/PageHeader";
import { QueryView } from "@/components/console/QueryView";
import { SectionCard } from "@/components/console/SectionCard";
import { formatTimestamp } from "@/lib/client/format";
import { type DeliveryData, usePingWebhook, useWebhook, type WebhookData } from "@/lib/client/hooks/webhooks";
import { describeError } from "@/lib/client/problem";
import type { ScopeKind } from "@/lib/contracts/scope";
import { ALL_EVENTS } from "@/lib/contracts/webhooks/events";
import { DeliveriesSection } from "./DeliveriesSection";
import { webhooksPath } from "./paths";
import { useWebhookActions } from "./useWebhookActions";
import { WebhookStatus } from "./WebhookStatus";

/** The host a webhook is sent to, to name it in the heading (its URL may be long). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** How a ping went, in a sentence. */
function pingSentence(delivery: DeliveryData): string {
  if (delivery.status === "succeeded") return `Ping delivered: answered ${delivery.response_status} in ${delivery.duration_ms} ms.`;
  return `Ping failed: ${delivery.error ?? `answered ${delivery.response_status}`}.`;
}

/** One webhook: what it is sent, Ping and what else can be done to it, and its delivery log with Redeliver. */
export function WebhookDetailPage({ scope, webhookId }: { scope: ScopeKind; webhookId: string }) {
  const webhook = useWebhook(scope, webhookId);
  const router = useRouter();
  const { actions, problem, dialogs } = useWebhookActions(scope, { onRemoved: () => router.push(webhooksPath(scope)) });
  const back = (
    <Anchor component={Link} href={webhooksPath(scope)} size="sm">
      <IconArrowLeft size={14} aria-hidden style={{ verticalAlign: "-2px" }} /> {scope === "personal" ? "Webhooks" : "Server webhooks"}
    </Anchor>
  );
  return (
    <>
      {back}
      <QueryView query={webhook} loading="Loading the webhook…" errorTitle="Could not load the webhook">
        {(shown) => (
          <>
            <PageHeader
              title={`Webhook to ${hostOf(shown.url)}`}
              description={<span style={{ wordBreak: "break-all" }}>{shown.url}</span>}
              actions={<PingButton scope={scope} webhookId={shown.id} />}
            />
            {problem}
            <Stack gap="md">
              <WebhookSummary webhook={shown} />
              <Group gap="xs">
                {actions(shown).map((action) => (
                  <Button
                    key={action.label}
                    size="xs"
                    variant={action.danger ? "subtle" : "default"}
                    color={action.danger ? "red" : undefined}
                    aria-label={action.ariaLabel}
                    onClick={action.onClick}
                  >
                    {action.label}
                  </Button>
                ))}
              </Group>
              <DeliveriesSection scope={scope} webhookId={shown.id} />
            </Stack>
          </>
        )}
      </QueryView>
      {dialogs}
    </>
  );
}

/** Ping: sends a `webhook.ping` now and says how it went. */
function PingButton({ scope, webhookId }: { scope: ScopeKind; webhookId: string }) {
  const ping = usePingWebhook(scope);
  const [outcome, setOutcome] = useState<string | null>(null);
  const run = async () => {
    setOutcome(null);
    try {
      setOutcome(pingSentence(await ping.mutateAsync({ params: { webhook_id: webhookId } })));
    } catch (error) {
      setOutcome(`Could not ping: ${describeError(error)}`);
    }
  };
  return (
    <Stack gap={4} align="flex-end">
      <Button leftSection={<IconSend size={16} aria-hidden />} loading={ping.isPending} onClick={run}>
        Ping
      </Button>
      <Text size="sm" role="status" data-testid="ping-outcome" ta="right" maw={360} style={{ wordBreak: "break-word" }}>
        {outcome}
      </Text>
    </Stack>
  );
}

function WebhookSummary({ webhook }: { webhook: WebhookData }) {
  const every = webhook.events.includes(ALL_EVENTS);
  return (
    <SectionCard title="Settings" data-testid="webhook-summary">
      <Stack gap="sm">
        {webhook.description && (
          <Text size="sm" style={{ wordBreak: "break-word" }}>
            {webhook.description}
          </Text>
        )}
        <WebhookStatus webhook={webhook} />
        <div>
          <Text size="sm" fw={500}>
            Events
          </Text>
          {every ? (
            <Text size="sm">Every event it may receive, and types added later.</Text>
          ) : (
            <List size="sm">
              {webhook.events.map((type) => (
                <List.Item key={type}>
                  <Code>{type}</Code>
                </List.Item>
              ))}
            </List>
          )}
        </div>
        <Text size="sm" c="dimmed">
          Added {formatTimestamp(webhook.created_at)}
          {webhook.previous_secret_expires_at &&
            `; its secret was rotated: the previous one signs as well until ${formatTimestamp(webhook.previous_secret_expires_at)}`}
          .
        </Text>
      </Stack>
    </SectionCard>
  );
}
