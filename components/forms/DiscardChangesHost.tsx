"use client";
import { type ComponentType, useEffect, useState, useSyncExternalStore } from "react";
import type { DiscardChangesDialogProps } from "./DiscardChangesDialog";
import { discardStore } from "./discard";

/**
 * Shows the "Discard changes?" question (discard.ts) for the whole console. The dialog's code
 * loads once a form first has edits, not with every page.
 */
export function DiscardChangesHost() {
  const pending = useSyncExternalStore(discardStore.subscribe, discardStore.pending, () => null);
  const wanted = useSyncExternalStore(discardStore.subscribe, discardStore.wanted, () => false);
  const [Dialog, setDialog] = useState<ComponentType<DiscardChangesDialogProps> | null>(null);

  useEffect(() => {
    if (!wanted || Dialog) return;
    let live = true;
    import("./DiscardChangesDialog").then(
      (m) => live && setDialog(() => m.DiscardChangesDialog),
      // Not loaded (the server out of reach): the browser's confirm() asks instead.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted, Dialog]);

  useEffect(() => {
    if (!Dialog) return;
    discardStore.setHostReady(true);
    return () => discardStore.setHostReady(false);
  }, [Dialog]);

  // The answer goes to the question open when it is given (read from the store, not from this render).
  return Dialog ? <Dialog question={pending} onAnswer={(discard) => discardStore.pending()?.answer(discard)} /> : null;
}
