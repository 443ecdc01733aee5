"use client";
import { FieldsConflict } from "@/components/forms/EditConflict";
import { FormModal } from "@/components/forms/FormModal";
import { useFieldConflict } from "@/components/forms/useFieldConflict";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useFormValues } from "@/components/forms/useFormValues";
import { endpointUrl } from "@/lib/client/api";
import { endpoints } from "@/lib/client/endpoints";
import { useUpdateWebhook, useWebhook, type WebhookData } from "@/lib/client/hooks/webhooks";
import type { ScopeKind } from "@/lib/contracts/scope";
import { sameJson } from "@/lib/shared/same-json";
import { type EventChoice, WEBHOOK_FIELDS, WebhookFields, type WebhookFieldValues } from "./WebhookFields";

/** The fields of a webhook this form edits and merges. */
const editedOf = (webhook: WebhookData): WebhookFieldValues => ({
  url: webhook.url,
  description: webhook.description ?? "",
  // The server answers only the types it takes.
  events: webhook.events as EventChoice[],
});
const LABELS = { url: "URL", description: "Description", events: "Events" };

interface Props {
  scope: ScopeKind;
  /** The webhook to edit; the dialog is open while it is set, built afresh for each so its fields start from it. */
  webhook: WebhookData | null;
  onClose: () => void;
}

export function EditWebhookModal({ scope, webhook, onClose }: Props) {
  return webhook ? <EditWebhookForm key={webhook.id} scope={scope} webhook={webhook} onClose={onClose} /> : null;
}

/**
 * Changes a webhook's url, description or events, written against the version it was opened
 * from; someone else's change meanwhile is shown, to merge, overwrite or take.
 */
function EditWebhookForm({ scope, webhook, onClose }: { scope: ScopeKind; webhook: WebhookData; onClose: () => void }) {
  const update = useUpdateWebhook(scope);
  const form = useFormSubmit(WEBHOOK_FIELDS);
  const fields = useFormValues(editedOf(webhook));
  const params = { webhook_id: webhook.id };
  const edit = useFieldConflict({
    row: webhook,
    query: useWebhook(scope, webhook.id),
    fieldsOf: editedOf,
    auditedPath: endpointUrl(endpoints.webhooks[scope].update, { params }),
  });
  const mine = { ...fields.values, url: fields.values.url.trim(), description: fields.values.description.trim() };

  const submit = async (overwrite = false) => {
    // Only what changed is sent.
    const from = overwrite && edit.conflict?.theirs ? editedOf(edit.conflict.theirs) : edit.base;
    const body = {
      ...(mine.url !== from.url && { url: mine.url }),
      ...(mine.description !== from.description && { description: mine.description || null }),
      ...(!sameJson(mine.events, from.events) && { events: mine.events }),
    };
    const written = await form.submit(() => edit.save((ifMatch) => update.mutateAsync({ params, body, ifMatch }), { overwrite }));
    if (written) onClose();
  };
  const load = (values: WebhookFieldValues) => {
    fields.set("url", values.url);
    fields.set("description", values.description);
    fields.set("events", values.events);
  };

  return (
    <FormModal
      opened
      onClose={onClose}
      title="Edit webhook"
      size="lg"
      submitLabel="Save webhook"
      form={form}
      onSubmit={() => submit()}
      dirty={fields.dirty}
    >
      <FieldsConflict
        what="webhook"
        edit={edit}
        mine={mine}
        editedOf={editedOf}
        labels={LABELS}
        load={load}
        submit={submit}
        busy={form.busy}
      />
      <WebhookFields scope={scope} values={fields.values} set={fields.set} fieldError={form.fieldError} />
    </FormModal>
  );
}
