"use client";
import { Code, Stack, Text, TextInput } from "@mantine/core";
import { useMemo, useState } from "react";
import type { z } from "zod";
import { EditConflict } from "@/components/forms/EditConflict";
import { type ChangeAuthor, isEditConflict } from "@/components/forms/edit-conflict";
import { FormModal } from "@/components/forms/FormModal";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { formatJson } from "@/components/templates/json-text";
import { ManifestDiff } from "@/components/templates/ManifestDiff";
import { ManifestEditor } from "@/components/templates/ManifestEditor";
import { entityTagOf } from "@/lib/client/entity-tag";
import { usePutDirective, usePutMentalModel, useReadBankAgain, useRemoveDirective, useRemoveMentalModel } from "@/lib/client/hooks/banks";
import type { BankDetail, BankHistoryEntry, PutDirectiveRequest, PutMentalModelRequest } from "@/lib/contracts/banks/schemas";
import { EditPreview } from "./EditPreview";
import { type BankPart, KEY_FIELD, useBankPartValidation } from "./entry-check";

type Entry = Record<string, unknown>;
type ModelBody = z.input<typeof PutMentalModelRequest>;
type DirectiveBody = z.input<typeof PutDirectiveRequest>;
export type EntryList = "mental_models" | "directives";

/** What an entry dialog works on: an entry of the bank (its list and itself), or a new one (`entry` null). */
interface EntryTarget {
  list: EntryList;
  entry: Entry | null;
}

const NOUN = { mental_models: "mental model", directives: "directive" } as const;
const KEY_LABEL = { mental_models: "Id", directives: "Name" } as const;
const PLACEHOLDER = {
  mental_models: '{\n  "name": "Open questions",\n  "source_query": "What is still open?"\n}',
  directives: '{\n  "content": "Name the document each fact comes from.",\n  "priority": 5\n}',
} as const;

/** An entry without its key: what the editor shows and a PUT sends (the path names the key). */
function withoutKey(list: EntryList, entry: Entry): Entry {
  const { [KEY_FIELD[list]]: _key, ...rest } = entry;
  return rest;
}

const keyOf = (list: EntryList, entry: Entry) => String(entry[KEY_FIELD[list]] ?? "");

/** The entry as the diff shows it: key first, then its fields; nothing for none. */
const entryText = (list: EntryList, key: string, entry: Entry | null) =>
  entry === null ? "" : formatJson({ [KEY_FIELD[list]]: key, ...withoutKey(list, entry) });

type Bank = z.output<typeof BankDetail>;

/** Sends a PUT or DELETE of one entry against a version of the bank (If-Match: a change meanwhile is a 412). */
function useEntryWrites(bank: Bank) {
  const putModel = usePutMentalModel();
  const putDirective = usePutDirective();
  const removeModel = useRemoveMentalModel();
  const removeDirective = useRemoveDirective();
  const bank_id = bank.bank_id;
  return {
    // The body was checked against the bank template schema before the preview; the server checks it again.
    put: (list: EntryList, key: string, body: Entry, version: Bank) => {
      const ifMatch = entityTagOf(version);
      return list === "mental_models"
        ? putModel.mutateAsync({ params: { bank_id, id: key }, body: body as ModelBody, ifMatch })
        : putDirective.mutateAsync({ params: { bank_id, name: key }, body: body as DirectiveBody, ifMatch });
    },
    remove: (list: EntryList, key: string) => {
      const ifMatch = entityTagOf(bank);
      return list === "mental_models"
        ? removeModel.mutateAsync({ params: { bank_id, id: key }, ifMatch })
        : removeDirective.mutateAsync({ params: { bank_id, name: key }, ifMatch });
    },
  };
}

const FIELDS = ["key", "entry"] as const;

/** A save refused because the bank changed meanwhile: the bank now, its entry now (null: none), and who changed the bank since. */
interface EntryConflict {
  bank: Bank;
  theirs: Entry | null;
  authors: ChangeAuthor[];
}

/** Who changed the bank after `version` was read, newest first, from its history. */
function authorsSince(entries: readonly BankHistoryEntry[], version: Bank): ChangeAuthor[] {
  return entries
    .map((entry) => ({ actor: entry.actor, at: entry.kind === "import" ? entry.applied_at : entry.at }))
    .filter((change) => version.updated_at === null || change.at > version.updated_at);
}

/**
 * Adds or edits one mental model or directive of a bank: the entry as JSON, checked live with the
 * bank template schema's rules, then the change as a diff, then saved (it replaces the bank's
 * entry whole, as an import's match does).
 */
export function BankEntryModal({ bank, target, onClose }: { bank: z.output<typeof BankDetail>; target: EntryTarget; onClose: () => void }) {
  const { list, entry } = target;
  const noun = NOUN[list];
  const adding = entry === null;
  const [key, setKey] = useState(entry ? keyOf(list, entry) : "");
  const opened = useMemo(() => (entry ? formatJson(withoutKey(list, entry)) : ""), [list, entry]);
  const [text, setText] = useState(opened);
  const [preview, setPreview] = useState<Entry | null>(null);
  const [keyError, setKeyError] = useState<string | null>(null);
  const part = useMemo<BankPart>(() => ({ kind: list, key: key.trim() || "new" }), [list, key]);
  const { parsed, check, previous } = useBankPartValidation(part, text);
  const form = useFormSubmit(FIELDS);
  const writes = useEntryWrites(bank);
  const trimmed = key.trim();
  // The version of the bank written against: the page's, then, after a conflict, the one read then.
  const [against, setAgainst] = useState(bank);
  const [conflict, setConflict] = useState<EntryConflict | null>(null);
  const readAgain = useReadBankAgain();
  const base = useMemo(() => (entry ? withoutKey(list, entry) : {}), [list, entry]);

  /** Saves `body` against `version`; someone else's change meanwhile is shown as a conflict, with what they did. */
  const save = async (body: Entry, version: Bank) => {
    const saved = await form.submit(async () => {
      try {
        return await writes.put(list, trimmed, body, version);
      } catch (error) {
        if (!isEditConflict(error)) throw error;
        const now = await readAgain(bank.bank_id);
        const theirs = (now.bank[list] as Entry[]).find((e) => keyOf(list, e) === trimmed);
        setConflict({
          bank: now.bank,
          theirs: theirs ? withoutKey(list, theirs) : null,
          authors: authorsSince(now.history.entries, version),
        });
        return undefined;
      }
    });
    if (saved) onClose();
  };

  const next = async () => {
    if (preview) return save(preview, against);
    if (adding) {
      const taken = (bank[list] as Entry[]).some((e) => keyOf(list, e) === trimmed);
      const error = !trimmed
        ? "is required"
        : taken
          ? `the bank has a ${noun} of this ${KEY_LABEL[list].toLowerCase()}; edit it instead`
          : null;
      setKeyError(error);
      if (error) return;
    }
    if (!parsed.ok || check.state !== "checked" || !check.valid) return;
    setPreview(withoutKey(list, parsed.value as Entry));
  };

  const title = adding ? `Add a ${noun} to ${bank.bank_id}` : `Edit ${noun} ${keyOf(list, entry)}`;
  return (
    <FormModal
      opened
      onClose={onClose}
      title={title}
      size="xl"
      submitLabel={preview ? "Save" : "Preview change"}
      form={form}
      onSubmit={next}
      dirty={text !== opened || (adding && key !== "")}
    >
      {conflict && preview && (
        <EditConflict
          what={noun}
          authors={conflict.authors}
          base={base}
          mine={preview}
          theirs={conflict.theirs}
          changes={
            <ManifestDiff
              before={formatJson(base)}
              after={conflict.theirs ? formatJson(conflict.theirs) : ""}
              beforeLabel="When you opened it"
              afterLabel="Now"
            />
          }
          onMerge={(merged) => {
            setAgainst(conflict.bank);
            setPreview(merged);
            setConflict(null);
          }}
          onOverwrite={() => {
            setAgainst(conflict.bank);
            setConflict(null);
            void save(preview, conflict.bank);
          }}
          onDiscard={onClose}
          busy={form.busy}
        />
      )}
      {preview ? (
        <EditPreview
          intro={
            <Text size="sm">
              {adding ? "Adds" : "Replaces"} the bank&apos;s {noun} <Code>{trimmed}</Code>
              {adding ? "" : " whole"}:
            </Text>
          }
          before={entryText(list, trimmed, entry)}
          after={entryText(list, trimmed, preview)}
          beforeLabel={adding ? "Now: none" : "Now"}
          onBack={() => setPreview(null)}
        />
      ) : (
        <Stack gap="sm">
          {adding ? (
            <TextInput
              label={KEY_LABEL[list]}
              description={`The ${noun}'s ${KEY_LABEL[list].toLowerCase()}: templates applied later match it by this.`}
              required
              value={key}
              onChange={(event) => setKey(event.currentTarget.value)}
              error={keyError ?? form.fieldError("key")}
              data-autofocus
            />
          ) : null}
          <ManifestEditor
            value={text}
            onChange={setText}
            check={check}
            previous={previous}
            label={`${noun[0]!.toUpperCase()}${noun.slice(1)} (JSON, without its ${KEY_FIELD[list]})`}
            noun={noun}
            placeholder={PLACEHOLDER[list]}
          />
        </Stack>
      )}
    </FormModal>
  );
}

/** Removes one mental model or directive of a bank, after showing what goes. */
export function RemoveEntryModal({
  bank,
  list,
  entry,
  onClose,
}: {
  bank: z.output<typeof BankDetail>;
  list: EntryList;
  entry: Entry;
  onClose: () => void;
}) {
  const key = keyOf(list, entry);
  const form = useFormSubmit(FIELDS);
  const writes = useEntryWrites(bank);
  const remove = async () => {
    const removed = await form.submit(() => writes.remove(list, key));
    if (removed) onClose();
  };
  return (
    <FormModal
      opened
      onClose={onClose}
      title={`Remove ${NOUN[list]} ${key}?`}
      size="lg"
      submitLabel={`Remove ${NOUN[list]}`}
      form={form}
      onSubmit={remove}
    >
      <EditPreview
        intro={
          <Text size="sm">
            Removes the {NOUN[list]} <Code>{key}</Code> from this bank. A template applied later that has it puts it back.
          </Text>
        }
        before={entryText(list, key, entry)}
        after=""
        afterLabel="After removing"
      />
    </FormModal>
  );
}
