"use client";
import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { type ReactNode, useState } from "react";
import { useDialogEscape } from "@/components/forms/useDialogEscape";
import { describeError } from "@/lib/client/problem";
import { FormError } from "./states";

export interface ConfirmModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Runs on confirm; the dialog stays open with the error shown when it throws. */
  onConfirm: () => Promise<unknown>;
}

/** Asks before something that cannot be undone (delete, revoke). */
export function ConfirmDialog({ opened, onClose, title, children, confirmLabel, onConfirm }: ConfirmModalProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      close();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  // It often asks from inside another dialog (revoking a key in a keys dialog): Escape answers this one only.
  const escapeRef = useDialogEscape(opened, close);
  return (
    <Modal opened={opened} onClose={close} title={title} centered closeOnEscape={false}>
      <Stack ref={escapeRef}>
        <Text size="sm">{children}</Text>
        <FormError message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
