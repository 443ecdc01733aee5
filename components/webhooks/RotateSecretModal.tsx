"use client";
import { Text } from "@mantine/core";
import { useShownOnce } from "@/components/console/useShownOnce";
import { FormModal } from "@/components/forms/FormModal";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useRotateWebhookSecret, type WebhookData } from "@/lib/client/hooks/webhooks";
import type { ScopeKind } from "@/lib/contracts/scope";
import { SECRET_NOT_COPIED, SecretShown } from "./SecretShown";
import { versionOfWebhook } from "./version";

/**
 * Gives a webhook a new secret, after saying what that does, then shows it once as a new
 * webhook's is shown. Written against the webhook as it is shown (If-Match).
 */
export function RotateSecretModal({
  scope,
  webhook,
  onClose,
}: {
  scope: ScopeKind;
  /** The webhook to rotate the secret of; the dialog is open while it is set. */
  webhook: WebhookData | null;
  onClose: () => void;
}) {
  const rotate = useRotateWebhookSecret(scope);
  const form = useFormSubmit([] as const);
  const shown = useShownOnce((made: { secret: string | null }) => made.secret, SECRET_NOT_COPIED);
  const { made } = shown;

  const close = () => {
    shown.reset();
    onClose();
  };
  const submit = async () => {
    if (!webhook) return;
    const rotated = await form.submit(async () =>
      rotate.mutateAsync({
        params: { webhook_id: webhook.id },
        ifMatch: await versionOfWebhook(scope, webhook),
      }),
    );
    if (rotated) shown.show({ secret: rotated.secret });
  };

  return (
    <FormModal
      opened={webhook !== null}
      onClose={close}
      title="Rotate the secret?"
      size="lg"
      submitLabel="Rotate secret"
      form={form}
      onSubmit={submit}
      locked={shown.locked}
      result={
        made && <SecretShown secret={made.secret} confirmed={shown.confirmed} onConfirmedChange={shown.setConfirmed} onDone={close} />
      }
    >
      <Text size="sm">
        Deliveries to <strong style={{ wordBreak: "break-all" }}>{webhook?.url}</strong> get signed with a new secret, shown once. For 24
        hours the current secret signs them as well, so the receiver can switch over without losing any.
      </Text>
    </FormModal>
  );
}
