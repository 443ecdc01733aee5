"use client";
import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { type ReactNode, useRef, useState } from "react";
import { FormStatus } from "@/components/forms/FormStatus";
import { useDialogEscape } from "@/components/forms/useDialogEscape";
import { useWaitingSaves } from "@/components/forms/useWaitingSaves";
import { isSaveCancelled } from "@/lib/client/pending-saves";
import { describeError } from "@/lib/client/problem";

export interface ConfirmModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Runs on confirm; the dialog stays open with the error shown when it throws. */
  onConfirm: () => Promise<unknown>;
}

/**
 * Asks before something that cannot be undone (delete, revoke). While the server is out of reach
 * the confirmed action waits for it, and the dialog says so; Cancel then means "do not do it"
 * and sends nothing more.
 */
export function ConfirmDialog({ opened, onClose, title, children, confirmLabel, onConfirm }: ConfirmModalProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { track, waiting, cancelWaiting } = useWaitingSaves();
  // Closed while its action waited: the action ends cancelled, which then needs no message.
  const dismissed = useRef(false);
  const close = () => {
    dismissed.current = true;
    cancelWaiting();
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    dismissed.current = false;
    try {
      await track(onConfirm);
      close();
    } catch (e) {
      if (!(dismissed.current && isSaveCancelled(e))) setError(describeError(e));
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
        <FormStatus form={{ formError: error, waiting, cancelWaiting }} />
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
