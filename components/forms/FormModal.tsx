"use client";
import { Button, Group, Modal, type ModalProps, Stack } from "@mantine/core";
import { type FormEvent, type ReactNode, useRef } from "react";
import { askToDiscard, type DiscardQuestion } from "./discard";
import { FormStatus, type FormStatusOf } from "./FormStatus";
import { useDialogEscape } from "./useDialogEscape";
import { useLeaveGuard } from "./useLeaveGuard";

interface FormModalProps {
  opened: boolean;
  /** Called by Cancel and by closing the dialog (after asking, when `dirty`); the form's problem is cleared first. */
  onClose: () => void;
  title: string;
  size?: ModalProps["size"];
  /** The submit button's label ("Add source", "Create key"). */
  submitLabel: string;
  /** What useFormSubmit gives: the busy flag, the form-level error and its reset. */
  form: FormStatusOf & { busy: boolean; reset: () => void };
  onSubmit: () => unknown;
  /** The fields. */
  children: ReactNode;
  /** Shown instead of the form once the submission produced something to show (a new key's token). */
  result?: ReactNode;
  /** The fields hold edits: closing the dialog, and leaving the page, ask before discarding them. */
  dirty?: boolean;
  /**
   * The dialog closes only by a button of its own (`result`'s): Escape, a click outside and
   * the close button do nothing, and leaving the page asks `locked` first. For a secret shown
   * once, until the user confirmed they have it.
   */
  locked?: DiscardQuestion;
}

/**
 * A dialog holding one form: its fields, the error that belongs to no field, and Cancel and
 * submit buttons. Fields show their own errors (useFormSubmit's `fieldError`).
 */
export function FormModal({
  opened,
  onClose,
  title,
  size,
  submitLabel,
  form,
  onSubmit,
  children,
  result,
  dirty = false,
  locked,
}: FormModalProps) {
  // Whether this dialog's question is open: a ref, read and set at once, so that a second
  // close (Escape, a click outside, Cancel) never sees a value from a render that was not yet
  // made; as state it could, and the close the answer belonged to was dropped.
  const asking = useRef(false);
  useLeaveGuard(opened && (dirty || locked !== undefined), locked);

  const close = async () => {
    if (locked || asking.current) return;
    if (dirty) {
      asking.current = true;
      let discard: boolean;
      try {
        discard = await askToDiscard();
      } finally {
        asking.current = false;
      }
      if (!discard) return;
    }
    form.reset();
    onClose();
  };
  // Escape is answered here, so a dialog opened from another one closes alone.
  const escapeRef = useDialogEscape(opened, () => void close());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit();
  };
  return (
    <Modal
      opened={opened}
      onClose={() => void close()}
      title={title}
      centered
      size={size}
      closeOnEscape={false}
      closeOnClickOutside={!locked}
      withCloseButton={!locked}
    >
      <div ref={escapeRef}>
        {result ?? (
          <form onSubmit={submit} noValidate>
            <Stack>
              {children}
              <FormStatus form={form} />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => void close()}>
                  Cancel
                </Button>
                <Button type="submit" loading={form.busy}>
                  {submitLabel}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </div>
    </Modal>
  );
}
