"use client";
import type { z } from "zod";
import type { BankDetail } from "@/lib/contracts/banks/schemas";
import { BankConfigModal } from "./BankConfigModal";
import { BankEntryModal, type EntryList, RemoveEntryModal } from "./BankEntryModal";

type Entry = Record<string, unknown>;

/** Which edit of a bank a dialog is open for. */
export type BankEditing =
  | { kind: "config" }
  | { kind: "entry"; list: EntryList; entry: Entry | null }
  | { kind: "remove"; list: EntryList; entry: Entry };

/** The dialog of one edit of the bank in place (CONTRACT §21); each opens afresh, from the bank as the page shows it. */
export function BankEditDialog({
  opened,
  editing,
  bank,
  onClose,
}: {
  opened: boolean;
  editing: BankEditing | null;
  bank: z.output<typeof BankDetail>;
  onClose: () => void;
}) {
  if (!opened || editing === null) return null;
  switch (editing.kind) {
    case "config":
      return <BankConfigModal bank={bank} onClose={onClose} />;
    case "entry":
      return <BankEntryModal bank={bank} target={editing} onClose={onClose} />;
    case "remove":
      return <RemoveEntryModal bank={bank} list={editing.list} entry={editing.entry} onClose={onClose} />;
  }
}
