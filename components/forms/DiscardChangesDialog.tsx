"use client";
import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";
import type { DiscardQuestion } from "./discard";
import { useDialogEscape } from "./useDialogEscape";

export interface DiscardChangesDialogProps {
  /** The open question, or null when none is. */
  question: DiscardQuestion | null;
  onAnswer: (discard: boolean) => void;
}

/** "Discard changes?": Keep editing (also Escape and a click outside) or Discard. */
export function DiscardChangesDialog({ question, onAnswer }: DiscardChangesDialogProps) {
  // The last question stays while the dialog fades out.
  const [shown, setShown] = useState(question);
  if (question && question !== shown) setShown(question);
  const keep = () => onAnswer(false);
  const escapeRef = useDialogEscape(question !== null, keep);
  return (
    // Above the dialog whose edits it asks about.
    <Modal opened={question !== null} onClose={keep} title={shown?.title} centered zIndex={400} closeOnEscape={false}>
      <Stack ref={escapeRef}>
        <Text size="sm">{shown?.message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={keep} data-autofocus>
            Keep editing
          </Button>
          <Button color="red" onClick={() => onAnswer(true)}>
            Discard
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
