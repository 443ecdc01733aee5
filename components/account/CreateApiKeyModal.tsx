"use client";
import { Code, Select, Switch, TextInput } from "@mantine/core";
import { TokenNotShown, TokenOnce } from "@/components/console/TokenOnce";
import { useShownOnce } from "@/components/console/useShownOnce";
import type { DiscardQuestion } from "@/components/forms/discard";
import { FormModal } from "@/components/forms/FormModal";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useFormValues } from "@/components/forms/useFormValues";
import { type KeyOwnerRef, useCreateApiKey } from "@/lib/client/hooks/api-keys";

const FIELDS = ["description", "expires_in_days", "scope"] as const;

/** Lifetimes the dialog offers (the API takes any 1-365 days); the value is days, or "never". */
const EXPIRY_OPTIONS = [
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "365 days" },
  { value: "never", label: "Never" },
];
// A key that lives for ever is the riskier choice, so the dialog starts at a bounded lifetime.
const DEFAULT_EXPIRY = "90";

/** Asked when the page is left while the token shows and the user has not said they have it. */
const TOKEN_NOT_COPIED: DiscardQuestion = {
  title: "Leave without the new key?",
  message: "The new API key is shown only this once. Copy it before you leave, or the key cannot be used.",
};

/**
 * Creates a key; after creation the dialog shows its token, once, and closes only by Done
 * once the key was copied or the user ticked that they stored it. An answer sent again for a
 * lost one (same Idempotency-Key) has no token (CONTRACT §19): the dialog then says so.
 */
export function CreateApiKeyModal({
  owner,
  ownerLabel,
  opened,
  onClose,
}: {
  owner: KeyOwnerRef;
  ownerLabel: string;
  opened: boolean;
  onClose: () => void;
}) {
  const create = useCreateApiKey(owner);
  const form = useFormSubmit(FIELDS);
  const fields = useFormValues({ description: "", expiry: DEFAULT_EXPIRY, readOnly: false });
  // The key made: its prefix names it in the list when the token did not come.
  const shown = useShownOnce((made: { token: string | null; prefix: string }) => made.token, TOKEN_NOT_COPIED);
  const { made } = shown;

  const close = () => {
    fields.reset();
    shown.reset();
    onClose();
  };

  const submit = async () => {
    const { description, expiry, readOnly } = fields.values;
    const created = await form.submit(() =>
      create.create({
        description: description.trim() || null,
        expires_in_days: expiry === "never" ? null : Number(expiry),
        scope: readOnly ? "read" : "write",
      }),
    );
    if (created) shown.show({ token: created.token, prefix: created.prefix });
  };

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title={`New API key for ${ownerLabel}`}
      size="lg"
      submitLabel="Create key"
      form={form}
      onSubmit={submit}
      dirty={fields.dirty && made === null}
      locked={shown.locked}
      result={
        made &&
        (made.token === null ? (
          <TokenNotShown title="The key was made; its token cannot be shown again" onDone={close}>
            The answer with the new key was lost on the way, and the token is shown only in that first answer. Revoke the key starting with{" "}
            <Code>{made.prefix}</Code> in the list, and make a new key.
          </TokenNotShown>
        ) : (
          <TokenOnce token={made.token} confirmed={shown.confirmed} onConfirmedChange={shown.setConfirmed} onDone={close} />
        ))
      }
    >
      <TextInput
        label="Description"
        description="What the key is for, to recognise it later (optional)."
        placeholder="CI pipeline"
        maxLength={200}
        {...fields.text("description")}
        error={form.fieldError("description")}
        data-autofocus
      />
      <Select
        label="Expires"
        description="After this the key is refused; create a new one then."
        data={EXPIRY_OPTIONS}
        value={fields.values.expiry}
        onChange={(value) => fields.set("expiry", value ?? DEFAULT_EXPIRY)}
        allowDeselect={false}
        error={form.fieldError("expires_in_days")}
      />
      <Switch
        label="Read-only"
        description="The key may only read (GET); anything else it sends is refused."
        {...fields.checkbox("readOnly")}
        error={form.fieldError("scope")}
      />
    </FormModal>
  );
}
