"use client";
import { type ReactNode, useState } from "react";
import { ConfirmModal } from "./ConfirmModal";

interface ConfirmOptions<T> {
  title: string;
  confirmLabel: string;
  /** What is about to happen to this item, in a sentence or two. */
  message: (item: T) => ReactNode;
  /** Does it; the dialog stays open showing the error when it throws. */
  onConfirm: (item: T) => Promise<unknown>;
}

/**
 * Asking before something that cannot be undone (delete, remove, revoke) for one item of a
 * list: `ask(item)` opens the dialog; render `modal` once.
 */
export function useConfirm<T>({ title, confirmLabel, message, onConfirm }: ConfirmOptions<T>) {
  const [opened, setOpened] = useState(false);
  // Kept after closing, so the message does not go blank while the dialog fades out.
  const [item, setItem] = useState<T | null>(null);
  const ask = (next: T) => {
    setItem(next);
    setOpened(true);
  };
  const modal = (
    <ConfirmModal
      opened={opened}
      onClose={() => setOpened(false)}
      title={title}
      confirmLabel={confirmLabel}
      onConfirm={() => onConfirm(item as T)}
    >
      {item !== null && message(item)}
    </ConfirmModal>
  );
  return { ask, modal };
}
