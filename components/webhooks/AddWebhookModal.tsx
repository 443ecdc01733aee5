"use client";
import { useShownOnce } from "@/components/console/useShownOnce";
import { FormModal } from "@/components/forms/FormModal";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useFormValues } from "@/components/forms/useFormValues";
import { useCreateWebhook } from "@/lib/client/hooks/webhooks";
import type { ScopeKind } from "@/lib/contracts/scope";
import { ALL_EVENTS } from "@/lib/contracts/webhooks/events";
import { SECRET_NOT_COPIED, SecretShown } from "./SecretShown";
import { WEBHOOK_FIELDS, WebhookFields, type WebhookFieldValues } from "./WebhookFields";

const EMPTY: WebhookFieldValues = { url: "", description: "", events: [ALL_EVENTS] };

/**
 * Adds a webhook of `scope`; then shows its secret, once, with how a receiver verifies a delivery,
 * and closes only by Done once the secret was copied or the user ticked that they stored it.
 */
export function AddWebhookModal({ scope, opened, onClose }: { scope: ScopeKind; opened: boolean; onClose: () => void }) {
  const create = useCreateWebhook(scope);
  const form = useFormSubmit(WEBHOOK_FIELDS);
  const fields = useFormValues(EMPTY);
  const shown = useShownOnce((made: { secret: string | null }) => made.secret, SECRET_NOT_COPIED);
  const { made } = shown;

  const close = () => {
    fields.reset();
    shown.reset();
    onClose();
  };

  const submit = async () => {
    const { url, description, events } = fields.values;
    const created = await form.submit(() =>
      create.mutateAsync({ body: { url: url.trim(), events, ...(description.trim() && { description: description.trim() }) } }),
    );
    if (created) shown.show({ secret: created.secret });
  };

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title={scope === "personal" ? "Add a webhook" : "Add a server webhook"}
      size="lg"
      submitLabel="Add webhook"
      form={form}
      onSubmit={submit}
      dirty={fields.dirty && made === null}
      locked={shown.locked}
      result={
        made && <SecretShown secret={made.secret} confirmed={shown.confirmed} onConfirmedChange={shown.setConfirmed} onDone={close} />
      }
    >
      <WebhookFields scope={scope} values={fields.values} set={fields.set} fieldError={form.fieldError} />
    </FormModal>
  );
}
