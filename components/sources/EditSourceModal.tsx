"use client";
import { PasswordInput, SegmentedControl, Stack, Text } from "@mantine/core";
import { FieldsConflict } from "@/components/forms/EditConflict";
import { FormModal } from "@/components/forms/FormModal";
import { useFieldConflict } from "@/components/forms/useFieldConflict";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useFormValues } from "@/components/forms/useFormValues";
import { endpointUrl } from "@/lib/client/api";
import { endpoints } from "@/lib/client/endpoints";
import { type SourceData, useSource, useUpdateSource } from "@/lib/client/hooks/sources";
import type { ScopeKind } from "@/lib/contracts/scope";
import { tokenHostOf } from "@/lib/contracts/sources/names";
import { SourceDescriptionInput, SourceUrlInput } from "./SourceFields";

const FIELDS = ["url", "description", "auth_token"] as const;

/** The fields of a source this form edits and merges (the token is write-only: never compared). */
const editedOf = (source: SourceData) => ({ url: source.url, description: source.description ?? "" });
const LABELS = { url: "URL", description: "Description" };

/** What happens to the stored token; it is never shown, only kept, replaced or removed. */
type TokenChoice = "keep" | "replace" | "remove";

const TOKEN_CHOICES = {
  stored: [
    { value: "keep", label: "Keep token" },
    { value: "replace", label: "Replace token" },
    { value: "remove", label: "Remove token" },
  ],
  none: [
    { value: "keep", label: "No token" },
    { value: "replace", label: "Add token" },
  ],
} as const;

interface Props {
  scope: ScopeKind;
  /** Whether the dialog is open: while there is a source to edit. */
  opened: boolean;
  source: SourceData | null;
  onClose: () => void;
  /** The source as saved: the panel then fetches its catalog once and shows the outcome in its row. */
  onSaved: (source: SourceData) => void;
}

/** The dialog for one source: open while `source` is set, and built afresh for each source so its fields start from it. */
export function EditSourceModal({ scope, opened, source, onClose, onSaved }: Props) {
  return opened && source ? (
    <EditSourceForm key={`${source.scope}:${source.name}`} scope={scope} source={source} onClose={onClose} onSaved={onSaved} />
  ) : null;
}

/**
 * Changes a source's URL, description or token (its name stays). The token field is
 * write-only: the stored token is kept, replaced or removed, never shown.
 */
function EditSourceForm({
  scope,
  source,
  onClose,
  onSaved,
}: { scope: ScopeKind; source: SourceData } & Pick<Props, "onClose" | "onSaved">) {
  const update = useUpdateSource(scope);
  const form = useFormSubmit(FIELDS);
  const fields = useFormValues({ ...editedOf(source), tokenChoice: "keep" as TokenChoice, token: "" });
  const { url, description, tokenChoice, token } = fields.values;
  const params = { name: source.name };
  // A token goes only to the host it was given for (CONTRACT §19): kept, it is dropped by a url elsewhere.
  const tokenHost = tokenHostOf(source.url);
  const newHost = tokenHostOf(url.trim());
  const tokenLeftBehind = source.has_auth && tokenChoice === "keep" && newHost !== null && newHost !== tokenHost;
  const edit = useFieldConflict({
    row: source,
    query: useSource(scope, source.name),
    fieldsOf: editedOf,
    auditedPath: endpointUrl(endpoints.sources[scope].update, { params }),
  });

  const submit = async (overwrite = false) => {
    const newDescription = description.trim() || null;
    // Only what changed is sent: an unchanged url or token keeps the cached catalog.
    const from = overwrite && edit.conflict?.theirs ? editedOf(edit.conflict.theirs) : edit.base;
    const body = {
      ...(url.trim() !== from.url && { url: url.trim() }),
      ...(newDescription !== (from.description || null) && { description: newDescription }),
      ...(tokenChoice === "replace" && { auth_token: token }),
      ...(tokenChoice === "remove" && { auth_token: null }),
    };
    const written = await form.submit(() => edit.save((ifMatch) => update.mutateAsync({ params, body, ifMatch }), { overwrite }));
    if (written) {
      onClose();
      onSaved(written);
    }
  };
  const load = (values: { url: string; description: string }) => {
    fields.set("url", values.url);
    fields.set("description", values.description);
  };

  return (
    <FormModal
      opened
      onClose={onClose}
      title={`Edit source ${source.name}`}
      submitLabel="Save source"
      form={form}
      onSubmit={() => submit()}
      dirty={fields.dirty}
    >
      <FieldsConflict
        what="source"
        edit={edit}
        mine={{ url: url.trim(), description: description.trim() }}
        editedOf={editedOf}
        labels={LABELS}
        load={load}
        submit={submit}
        busy={form.busy}
      />
      <Text size="sm" c="dimmed">
        The name stays <strong>{source.name}</strong>; templates installed from this source stay linked to it.
      </Text>
      <SourceUrlInput {...fields.text("url")} error={form.fieldError("url")} />
      {tokenLeftBehind && (
        <Text size="sm" c="orange.8" data-testid="token-host-changed">
          The token is for {tokenHost ?? "the old URL"}; it will not be sent to {newHost}, and saving removes it. Enter the token for the
          new host under Replace token, or leave it without one.
        </Text>
      )}
      <SourceDescriptionInput
        description="Optional. Leave empty to remove it."
        {...fields.text("description")}
        error={form.fieldError("description")}
      />
      <Stack gap={6}>
        <Text size="sm" fw={500} id="source-token-choice">
          Access token
        </Text>
        <Text size="xs" c="dimmed">
          {source.has_auth ? "A token is stored. It is never shown; keep, replace or remove it." : "No token is stored."}
        </Text>
        <SegmentedControl
          aria-labelledby="source-token-choice"
          value={tokenChoice}
          onChange={(value) => fields.set("tokenChoice", value as TokenChoice)}
          data={[...TOKEN_CHOICES[source.has_auth ? "stored" : "none"]]}
        />
        {tokenChoice === "replace" && (
          <PasswordInput
            label={source.has_auth ? "New token" : "Token"}
            description="Sent only to this source's host; stored encrypted and never shown again."
            required
            {...fields.text("token")}
            error={form.fieldError("auth_token")}
            autoComplete="off"
          />
        )}
        {tokenChoice === "remove" && (
          <Text size="sm" c="orange.8">
            The stored token is deleted when you save; requests to the marketplace then go without one.
          </Text>
        )}
        {tokenChoice !== "replace" && form.fieldError("auth_token") && (
          <Text size="sm" c="red">
            {form.fieldError("auth_token")}
          </Text>
        )}
      </Stack>
    </FormModal>
  );
}
