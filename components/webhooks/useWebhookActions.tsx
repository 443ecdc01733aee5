"use client";
import { Alert, Text } from "@mantine/core";
import { useState } from "react";
import { lazyDialog } from "@/components/console/lazy";
import type { RowAction } from "@/components/console/RowActions";
import { useConfirm } from "@/components/console/useConfirm";
import { useRemoveWebhook, useUpdateWebhook, type WebhookData } from "@/lib/client/hooks/webhooks";
import { describeError } from "@/lib/client/problem";
import type { ScopeKind } from "@/lib/contracts/scope";
import { versionOfWebhook } from "./version";

type WebhookDialogProps = { scope: ScopeKind; webhook: WebhookData | null; onClose: () => void };
const webhookDialog = (load: () => Promise<React.ComponentType<WebhookDialogProps>>) =>
  lazyDialog(
    load,
    (props) => props.webhook !== null,
    (props) => ({ ...props, webhook: null }),
  );
const EditWebhookModal = webhookDialog(() => import("./EditWebhookModal").then((m) => m.EditWebhookModal));
const RotateSecretModal = webhookDialog(() => import("./RotateSecretModal").then((m) => m.RotateSecretModal));

/**
 * What can be done to a webhook of `scope`, wherever it is shown: Edit, Rotate secret,
 * Pause or Resume, Remove (asked first); each written against the webhook as shown (If-Match).
 * Render `dialogs` once, and `problem` where a failed pause or resume is to be said.
 */
export function useWebhookActions(scope: ScopeKind, { onRemoved }: { onRemoved?: () => void } = {}) {
  const update = useUpdateWebhook(scope);
  const remove = useRemoveWebhook(scope);
  const [editing, setEditing] = useState<WebhookData | null>(null);
  const [rotating, setRotating] = useState<WebhookData | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const confirmRemove = useConfirm<WebhookData>({
    title: "Remove webhook?",
    confirmLabel: "Remove webhook",
    message: (webhook) => (
      <>
        Remove the webhook to <strong style={{ wordBreak: "break-all" }}>{webhook.url}</strong> and its delivery log? Nothing more is sent
        to it.
      </>
    ),
    onConfirm: async (webhook) => {
      await remove.mutateAsync({ params: { webhook_id: webhook.id }, ifMatch: await versionOfWebhook(scope, webhook) });
      onRemoved?.();
    },
  });

  const setActive = async (webhook: WebhookData, active: boolean) => {
    setFailure(null);
    try {
      const ifMatch = await versionOfWebhook(scope, webhook);
      await update.mutateAsync({ params: { webhook_id: webhook.id }, body: { active }, ifMatch });
    } catch (error) {
      setFailure(`Could not ${active ? "resume" : "pause"} the webhook: ${describeError(error)}`);
    }
  };

  const actions = (webhook: WebhookData): RowAction[] => [
    { label: "Edit", ariaLabel: `Edit webhook ${webhook.url}`, onClick: () => setEditing(webhook) },
    { label: "Rotate secret", ariaLabel: `Rotate the secret of webhook ${webhook.url}`, onClick: () => setRotating(webhook) },
    webhook.active
      ? { label: "Pause", ariaLabel: `Pause webhook ${webhook.url}`, onClick: () => void setActive(webhook, false) }
      : { label: "Resume", ariaLabel: `Resume webhook ${webhook.url}`, onClick: () => void setActive(webhook, true) },
    { label: "Remove", ariaLabel: `Remove webhook ${webhook.url}`, danger: true, onClick: () => confirmRemove.ask(webhook) },
  ];

  const problem = failure && (
    <Alert color="red" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={() => setFailure(null)} mb="md">
      <Text size="sm">{failure}</Text>
    </Alert>
  );
  const dialogs = (
    <>
      <EditWebhookModal scope={scope} webhook={editing} onClose={() => setEditing(null)} />
      <RotateSecretModal scope={scope} webhook={rotating} onClose={() => setRotating(null)} />
      {confirmRemove.modal}
    </>
  );
  return { actions, problem, dialogs };
}
