"use client";
import { Button, Group, Modal, Stack, type ModalProps } from "@mantine/core";
import type { FormEvent, ReactNode } from "react";
import { FormError } from "@/components/console/states";

interface FormModalProps {
  opened: boolean;
  /** Called by Cancel and by closing the dialog; the form's problem is cleared first. */
  onClose: () => void;
  title: string;
  size?: ModalProps["size"];
  /** The submit button's label ("Add source", "Create key"). */
  submitLabel: string;
  /** What useFormSubmit gives: the busy flag, the form-level error and its reset. */
  form: { busy: boolean; formError: string | null; reset: () => void };
  onSubmit: () => unknown;
  /** The fields. */
  children: ReactNode;
  /** Shown instead of the form once the submission produced something to show (a new key's token). */
  result?: ReactNode;
}

/**
 * A dialog holding one form: its fields, the error that belongs to no field, and Cancel and
 * submit buttons. Fields show their own errors (useFormSubmit's `fieldError`).
 */
export function FormModal({ opened, onClose, title, size, submitLabel, form, onSubmit, children, result }: FormModalProps) {
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered size={size}>
      {result ?? (
        <form onSubmit={submit} noValidate>
          <Stack>
            {children}
            <FormError message={form.formError} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={form.busy}>
                {submitLabel}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
