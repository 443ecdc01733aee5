"use client";
import { PasswordInput } from "@mantine/core";
import { useState } from "react";
import { FormModal } from "@/components/forms/FormModal";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useFormValues } from "@/components/forms/useFormValues";
import { useChangePassword } from "@/lib/client/hooks/identity";

const FIELDS = ["current_password", "new_password"] as const;

/** The bounds the API checks (POST /ext/svc/me/password), repeated here only for the hint. */
const MIN_LENGTH = 12;
const MAX_LENGTH = 512;

/**
 * Changes the signed-in user's password: the current one, and the new one twice (a typo in
 * a password nobody sees would lock the user out). `onChanged` runs after the API accepted it.
 */
export function ChangePasswordModal({ opened, onClose, onChanged }: { opened: boolean; onClose: () => void; onChanged: () => void }) {
  const change = useChangePassword();
  const form = useFormSubmit(FIELDS);
  const fields = useFormValues({ current: "", next: "", repeated: "" });
  const [mismatch, setMismatch] = useState(false);

  const close = () => {
    fields.reset();
    setMismatch(false);
    onClose();
  };

  const submit = async () => {
    const { current, next, repeated } = fields.values;
    setMismatch(next !== repeated);
    if (next !== repeated) return;
    // A 204 resolves to nothing, so say success explicitly: undefined means refused.
    const changed = await form.submit(async () => {
      await change.mutateAsync({ body: { current_password: current, new_password: next } });
      return true;
    });
    if (changed) {
      close();
      onChanged();
    }
  };

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="Change your password"
      submitLabel="Save new password"
      form={form}
      onSubmit={submit}
      dirty={fields.dirty}
    >
      <PasswordInput
        label="Current password"
        autoComplete="current-password"
        required
        {...fields.text("current")}
        error={form.fieldError("current_password")}
        data-autofocus
      />
      <PasswordInput
        label="New password"
        description={`${MIN_LENGTH} to ${MAX_LENGTH} characters.`}
        autoComplete="new-password"
        required
        maxLength={MAX_LENGTH}
        {...fields.text("next")}
        error={form.fieldError("new_password")}
      />
      <PasswordInput
        label="Repeat the new password"
        autoComplete="new-password"
        required
        maxLength={MAX_LENGTH}
        {...fields.text("repeated")}
        error={mismatch ? "does not match the new password" : undefined}
      />
    </FormModal>
  );
}
