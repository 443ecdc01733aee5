"use client";
import { Alert, Button, Grid, Group, List, Stack, Text } from "@mantine/core";
import { IconAlertTriangle, IconDeviceFloppy, IconTrash } from "@tabler/icons-react";
import { useId, useMemo, useRef, useState } from "react";
import { AuditChanges } from "@/components/admin/AuditChanges";
import { SectionCard } from "@/components/console/SectionCard";
import { useConfirm } from "@/components/console/useConfirm";
import { jsonDiagnostics } from "@/components/editor/diagnostics";
import { JsonEditor, type JsonEditorHandle } from "@/components/editor/JsonEditor";
import { EditConflict } from "@/components/forms/EditConflict";
import { type ChangeAuthor, changesSince, isEditConflict } from "@/components/forms/edit-conflict";
import { FormFieldset } from "@/components/forms/FormFieldset";
import { useLeaveGuard } from "@/components/forms/useLeaveGuard";
import { entityTagOf } from "@/lib/client/entity-tag";
import { type PolicyVersion, useDeletePolicy, useReadPolicyNow, useSavePolicy } from "@/lib/client/hooks/policy";
import { ApiProblem, describeError } from "@/lib/client/problem";
import classes from "./PolicyEditor.module.css";
import { PolicyForm } from "./PolicyForm";
import { formatPath, knownStrategies, newPolicy, type Path, type PolicyDraft, parsePolicyJson, setIn, toJson } from "./policy-document";
import { ResolvePreview } from "./ResolvePreview";

/** The API reports the document's fields under `document` (the PUT body's root). */
const DOCUMENT = "document";
const shortPath = (path: string) => (path === DOCUMENT ? "(the document)" : path.replace(/^document\.?/, ""));

interface PolicyEditorProps {
  bankId: string;
  /** The stored document; null when the bank has no policy yet. */
  saved: PolicyDraft | null;
  /** The stored document's version (its ETag; `none` with no policy), which a save or delete sends as its condition. */
  version: PolicyVersion;
  /** The bank's config, whose retain strategies the form offers as strategy names. */
  bankConfig: Record<string, unknown> | undefined;
}

/** The stored policy a form shows and edits: its document (null: none) and version. */
interface Shown {
  document: PolicyDraft | null;
  version: PolicyVersion;
}

/** A save refused because the policy changed meanwhile: the policy now, and who changed it (none named: unknown). */
interface Conflict extends Shown {
  authors: ChangeAuthor[];
}

/**
 * A bank's policy as a form and as raw JSON, both editing one document: a form change
 * rewrites the JSON; JSON that parses updates the form, and JSON that does not pauses the
 * form until it does. Save sends the document with the version it was made from (If-Match);
 * the API's refusals show at their fields, and a policy changed meanwhile by someone else shows
 * who changed what, to merge onto, overwrite or take instead.
 */
export function PolicyEditor({ bankId, saved: savedNow, version, bankConfig }: PolicyEditorProps) {
  // The version the form was made from: the page's until a save, a conflict's choice or (with
  // nothing typed) a newer one the page read; what a save sends as its condition.
  const [shown, setShown] = useState<Shown>({ document: savedNow, version });
  const saved = shown.document;
  const baseline = saved ?? newPolicy();
  const [draft, setDraft] = useState<PolicyDraft>(baseline);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [json, setJson] = useState(() => toJson(baseline));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [otherError, setOtherError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const save = useSavePolicy(bankId);
  const remove = useDeletePolicy(bankId);
  const readNow = useReadPolicyNow(bankId);
  const jsonEditor = useRef<JsonEditorHandle>(null);
  const jsonIds = { description: useId(), error: useId() };
  // The JSON view's markers: where the text stops being JSON, or where each field the API refused sits.
  const diagnostics = useMemo(
    () => jsonDiagnostics(json, jsonError, { errors: problem?.errors ?? [] }, { root: DOCUMENT, source: shortPath }),
    [json, jsonError, problem],
  );

  const load = (document: PolicyDraft) => {
    setConflict(null);
    setDraft(document);
    setJson(toJson(document));
    setJsonError(null);
    setProblem(null);
    setOtherError(null);
  };

  const onSet = (path: Path, value: unknown) => {
    const next = setIn(draft, path, value) as PolicyDraft;
    setDraft(next);
    setJson(toJson(next));
    setStatus(null);
  };

  const onJson = (text: string) => {
    setJson(text);
    setStatus(null);
    const parsed = parsePolicyJson(text);
    setJsonError(parsed.error);
    if (parsed.draft) setDraft(parsed.draft);
  };

  const errorAt = (path: Path, withItems = false) => {
    if (!problem) return undefined;
    const full = `${DOCUMENT}.${formatPath(path)}`;
    const messages = problem.errors
      .filter((e) => e.path === full || (withItems && e.path.startsWith(`${full}[`)))
      .map((e) => (e.path === full ? e.message : `${e.path.slice(full.length)}: ${e.message}`));
    return messages.length ? messages.join("; ") : undefined;
  };

  const dirty = jsonError !== null || toJson(draft) !== toJson(baseline);
  // Leaving (a link, Back, reload) with a document that differs from the saved one asks first.
  useLeaveGuard(dirty);
  // With nothing typed, a newer policy the page read (another tab's save, a restore) is shown.
  if (!dirty && conflict === null && version !== shown.version && !save.isPending) {
    setShown({ document: savedNow, version });
    setDraft(savedNow ?? newPolicy());
    setJson(toJson(savedNow ?? newPolicy()));
  }

  /** The policy changed meanwhile: the form keeps the draft, and shows the policy now and who changed it. */
  const showConflict = async () => {
    const { now, changes } = await readNow();
    const since = changes && changesSince(changes, saved, (change) => change.after);
    setConflict({
      document: (now?.document as PolicyDraft | undefined) ?? null,
      version: now ? entityTagOf(now) : "none",
      authors: since ?? [],
    });
  };

  const send = async (condition: PolicyVersion) => {
    setProblem(null);
    setOtherError(null);
    setStatus(null);
    try {
      const stored = await save.mutateAsync({ document: draft, version: condition });
      setShown({ document: stored.document as PolicyDraft, version: entityTagOf(stored) });
      load(stored.document as PolicyDraft);
      setStatus("Policy saved.");
    } catch (error) {
      if (isEditConflict(error)) await showConflict().catch((e) => setOtherError(describeError(e)));
      else if (error instanceof ApiProblem) setProblem(error);
      else setOtherError(describeError(error));
    }
  };
  const onSave = () => send(shown.version);

  /** A conflict's choice: the form now stands on their version. */
  const takeTheirs = (next: Conflict, document: PolicyDraft, note: string) => {
    setShown({ document: next.document, version: next.version });
    load(document);
    setStatus(note);
  };

  const confirmDelete = useConfirm<string>({
    title: "Delete policy?",
    confirmLabel: "Delete policy",
    message: (id) => (
      <>
        Delete the policy of <strong>{id}</strong>? Its strategy overrides and public access go with it. This cannot be undone.
      </>
    ),
    onConfirm: async () => {
      await remove.mutateAsync(shown.version === "none" ? undefined : shown.version);
      setShown({ document: null, version: "none" });
      load(newPolicy());
      setStatus("Policy deleted. The bank has no policy now.");
    },
  });

  return (
    <Stack gap="lg">
      {saved === null && (
        <Alert color="blue" variant="light" title="No policy yet" data-testid="no-policy">
          This bank has no policy: no strategy is set and nothing is public. Fill in the form or the JSON and save to create one.
        </Alert>
      )}
      {problem && (
        <Alert
          color="red"
          role="alert"
          title="The policy was not saved"
          icon={<IconAlertTriangle aria-hidden />}
          data-testid="policy-errors"
        >
          <Text size="sm">{problem.detail}</Text>
          {problem.errors.length > 0 && (
            <List size="sm" mt="xs">
              {problem.errors.map((e, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: one answer's errors, shown as they came and replaced whole; two may share a path and message.
                <List.Item key={i}>
                  <Text span ff="monospace" size="sm">
                    {shortPath(e.path)}
                  </Text>
                  : {e.message}
                </List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
      {conflict && (
        <EditConflict
          what="policy"
          authors={conflict.authors}
          base={baseline}
          mine={draft}
          theirs={conflict.document}
          changes={<AuditChanges before={saved} after={conflict.document} />}
          onMerge={(merged) =>
            takeTheirs(conflict, merged, "Your changes are merged onto theirs. Review the result, then save the policy.")
          }
          onOverwrite={() => void send(conflict.version)}
          onDiscard={() =>
            takeTheirs(conflict, conflict.document ?? newPolicy(), "Your changes are discarded: the form shows the policy as it is now.")
          }
          busy={save.isPending}
        />
      )}
      {otherError && (
        <Alert color="red" role="alert" icon={<IconAlertTriangle aria-hidden />}>
          {otherError}
        </Alert>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <SectionCard title="Form" padding="lg">
            {jsonError && (
              <Alert color="yellow" mb="sm" title="The form is paused" data-testid="form-paused">
                The JSON is not valid, so the form cannot follow it. Fix the JSON, or discard your changes.
              </Alert>
            )}
            <FormFieldset disabled={jsonError !== null} aria-label="Policy form" data-testid="policy-form">
              <PolicyForm draft={draft} onSet={onSet} errorAt={errorAt} strategies={knownStrategies(bankConfig, saved)} />
            </FormFieldset>
          </SectionCard>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          {/* Beside the form on wide screens, the JSON stays in view while the form scrolls. */}
          <SectionCard title="JSON" padding="lg" className={classes.json}>
            <Stack gap={4}>
              {/* The editor is named by aria-label (a label element cannot point at it); this is what sighted users read. */}
              <Text size="sm" fw={500} onClick={() => jsonEditor.current?.focus()}>
                Policy document
              </Text>
              <Text size="xs" c="dimmed" id={jsonIds.description}>
                The same document as the form. Edits here update the form while the JSON is valid.
              </Text>
              <JsonEditor
                handleRef={jsonEditor}
                value={json}
                onChange={onJson}
                label="Policy document"
                describedBy={jsonError ? `${jsonIds.description} ${jsonIds.error}` : jsonIds.description}
                invalid={jsonError !== null}
                diagnostics={diagnostics}
                fontSize="xs"
                minHeight="18em"
                maxHeight="min(60em, 75vh)"
                testId="policy-json"
              />
              {jsonError && (
                <Text size="xs" c="var(--mantine-color-error)" id={jsonIds.error}>
                  Not valid JSON: {jsonError}
                </Text>
              )}
            </Stack>
          </SectionCard>
        </Grid.Col>
      </Grid>
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Button
            onClick={onSave}
            loading={save.isPending}
            disabled={jsonError !== null || (saved !== null && !dirty)}
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
          >
            Save policy
          </Button>
          {dirty && (
            <Button variant="default" onClick={() => load(baseline)}>
              Discard changes
            </Button>
          )}
          <Text size="sm" c="dimmed" role="status" data-testid="policy-status">
            {status ?? (dirty ? "Unsaved changes" : "")}
          </Text>
        </Group>
        {saved !== null && (
          <Button variant="subtle" color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => confirmDelete.ask(bankId)}>
            Delete policy
          </Button>
        )}
      </Group>
      <ResolvePreview bankId={bankId} hasPolicy={saved !== null} unsaved={saved !== null && dirty} saved={saved} />
      {confirmDelete.modal}
    </Stack>
  );
}
