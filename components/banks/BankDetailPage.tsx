"use client";
import { Alert, Anchor, Button, Card, Code, DataList, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { IconDeviceFloppy, IconDownload, IconPencil, IconPlus, IconShieldLock, IconTemplate, IconTrash } from "@tabler/icons-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, useMemo, useState } from "react";
import { LazyModal as Modal } from "@/components/console/LazyModal";
import { lazyModal, lazySection } from "@/components/console/lazy";
import { PageHeader } from "@/components/console/PageHeader";
import { ErrorState, LoadingState } from "@/components/console/states";
import { useConfirm } from "@/components/console/useConfirm";
import { templatePath } from "@/components/templates/paths";
import { entityTagOf } from "@/lib/client/entity-tag";
import { formatTimestamp } from "@/lib/client/format";
import { useBank, useBankHistory, useDeleteBank, useFetchBankExport } from "@/lib/client/hooks/banks";
import { ApiProblem, describeError } from "@/lib/client/problem";
import type { ScopeKind } from "@/lib/contracts/scope";
import type { ApplyResult } from "./ApplyTemplateForm";
import { BankBreadcrumbs } from "./BankBreadcrumbs";
import { ConfigTable, ConfigUnreadable, Directives, MentalModels } from "./BankContents";
import { BankProvenance } from "./BankProvenance";
import type { BankEditing } from "./edit/BankEditDialog";
import type { EntryList } from "./edit/BankEntryModal";
import { localEdits } from "./edit/local-edits";
import { Fact } from "./Fact";
import { ImportPreview } from "./ImportPreview";
import { bankPolicyHref } from "./links";

const BankEditDialog = lazyModal(() => import("./edit/BankEditDialog").then((m) => m.BankEditDialog));
const SaveAsTemplateModal = lazyModal(() => import("./SaveAsTemplateModal").then((m) => m.SaveAsTemplateModal));

/** Saves a manifest as `{bank_id}.json`; ':' (common in bank ids) is not allowed in file names everywhere. */
function downloadJson(bankId: string, manifest: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(manifest, null, 2)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `${bankId.replace(/:/g, "_")}.json`;
  link.click();
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

// Shown in the "Apply a template" dialog only; its code loads alongside the bank.
const ApplyTemplateForm = lazySection(
  () => import("./ApplyTemplateForm").then((m) => m.ApplyTemplateForm),
  <LoadingState label="Loading the form…" />,
);

// The history, at the foot of the page, loads beside the bank instead of with the page (the page's first-load JS is at its budget).
// The notice of edits made here shows on edited banks only, so it too loads beside the bank.
const LocalEditsNotice = lazySection(() => import("./edit/LocalEditsNotice").then((m) => m.LocalEditsNotice), null);
const BankHistory = lazySection(() => import("./BankHistory").then((m) => m.BankHistory), <LoadingState label="Loading the history…" />);

function Section({ title, count, actions, children }: { title: string; count?: number; actions?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <Group justify="space-between" gap="xs">
        <Title order={2} size="h4">
          {title}
          {count !== undefined && (
            <Text span c="dimmed" fw={400} size="md">
              {" "}
              ({count})
            </Text>
          )}
        </Title>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
      {children}
    </Stack>
  );
}

const ENTRY_NOUN = { mental_models: "mental model", directives: "directive" } as const;

/** An entry's Edit and Remove buttons, named with the entry for screen readers. */
function EntryActions({
  list,
  entry,
  onEdit,
}: {
  list: EntryList;
  entry: Record<string, unknown>;
  onEdit: (editing: BankEditing) => void;
}) {
  const key = String(entry[list === "mental_models" ? "id" : "name"] ?? "");
  const noun = ENTRY_NOUN[list];
  return (
    <Group gap="xs" mt="xs">
      <Button
        size="compact-xs"
        variant="light"
        leftSection={<IconPencil size={12} aria-hidden />}
        aria-label={`Edit ${noun} ${key}`}
        onClick={() => onEdit({ kind: "entry", list, entry })}
      >
        Edit
      </Button>
      <Button
        size="compact-xs"
        variant="subtle"
        color="red"
        leftSection={<IconTrash size={12} aria-hidden />}
        aria-label={`Remove ${noun} ${key}`}
        onClick={() => onEdit({ kind: "remove", list, entry })}
      >
        Remove
      </Button>
    </Group>
  );
}

/** One bank: who owns it, where its contents came from, its config, mental models and directives. */
export function BankDetailPage({ bankId }: { bankId: string }) {
  const router = useRouter();
  const bank = useBank(bankId);
  const remove = useDeleteBank();
  const [applying, setApplying] = useState(false);
  const [applied, setApplied] = useState<ApplyResult | null>(null);
  const fetchExport = useFetchBankExport();
  const [exportState, setExportState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const [savingAsTemplate, setSavingAsTemplate] = useState(false);
  const [savedTemplate, setSavedTemplate] = useState<{ scope: ScopeKind; id: string } | null>(null);
  const [editing, setEditing] = useState<BankEditing | null>(null);
  // Asked here only for a bank edited since its last apply (what changed); the History section asks for it anyway.
  const history = useBankHistory(bankId, { enabled: bank.data?.locally_modified === true });
  const edits = useMemo(
    () => (bank.data?.locally_modified && history.data ? localEdits(history.data.entries, bank.data) : null),
    [bank.data, history.data],
  );
  const download = async () => {
    setExportState({ busy: true, error: null });
    try {
      downloadJson(bankId, await fetchExport(bankId));
      setExportState({ busy: false, error: null });
    } catch (error) {
      setExportState({ busy: false, error: describeError(error) });
    }
  };
  const confirmDelete = useConfirm<string>({
    title: "Delete bank?",
    confirmLabel: "Delete bank",
    message: (id) => (
      <>
        Delete <strong>{id}</strong> with its config, mental models, directives, history and policy? This cannot be undone. A bank created
        later with this id starts without them; the audit log keeps what the policy said.
      </>
    ),
    onConfirm: async (id) => {
      // Against the bank as this page shows it: changed meanwhile, it is not deleted (412).
      await remove.mutateAsync({ params: { bank_id: id }, ifMatch: entityTagOf(bank.data) });
      router.push("/banks");
    },
  });

  if (bank.isPending) {
    return (
      <>
        <BankBreadcrumbs bankId={bankId} />
        <LoadingState label="Loading the bank…" />
      </>
    );
  }
  if (bank.isError) {
    const missing = bank.error instanceof ApiProblem && bank.error.status === 404;
    return (
      <>
        <BankBreadcrumbs bankId={bankId} />
        <Title order={1} size="h2" mb="md">
          {missing ? "Bank not found" : "Bank"}
        </Title>
        <ErrorState
          title={missing ? "Not found" : "Could not load the bank"}
          error={bank.error}
          onRetry={missing ? undefined : () => bank.refetch()}
        />
        <Button component={Link} href="/banks" variant="light" mt="md">
          Back to banks
        </Button>
      </>
    );
  }

  const data = bank.data;
  return (
    <>
      <BankBreadcrumbs bankId={bankId} />
      <PageHeader
        title={data.name}
        description={
          <>
            Bank <Code>{data.bank_id}</Code>
            {data.owner && (
              <>
                {" "}
                owned by <strong>{data.owner}</strong>
              </>
            )}
          </>
        }
        actions={
          <>
            <Button leftSection={<IconTemplate size={16} aria-hidden />} onClick={() => setApplying(true)}>
              Apply template
            </Button>
            <Button component={Link} href={bankPolicyHref(bankId)} variant="light" leftSection={<IconShieldLock size={16} aria-hidden />}>
              Policy
            </Button>
            <Button variant="light" leftSection={<IconDownload size={16} aria-hidden />} onClick={download} loading={exportState.busy}>
              Download
            </Button>
            <Button variant="light" leftSection={<IconDeviceFloppy size={16} aria-hidden />} onClick={() => setSavingAsTemplate(true)}>
              Save as template
            </Button>
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => confirmDelete.ask(bankId)}
            >
              Delete bank
            </Button>
          </>
        }
      />
      <Stack gap="xl">
        {exportState.error && (
          <Alert
            color="red"
            role="alert"
            title="Could not export the bank"
            withCloseButton
            onClose={() => setExportState({ busy: false, error: null })}
          >
            {exportState.error}
          </Alert>
        )}
        {savedTemplate && (
          <Alert
            color="green"
            role="status"
            title="Saved as a template"
            withCloseButton
            onClose={() => setSavedTemplate(null)}
            data-testid="saved-template"
          >
            The bank&apos;s config, mental models and directives are now template{" "}
            <Anchor component={Link} href={templatePath(savedTemplate.scope, savedTemplate.id)}>
              {savedTemplate.scope}/{savedTemplate.id}
            </Anchor>
            .
          </Alert>
        )}
        {applied && (
          <ImportPreview
            result={applied.import_result}
            changes={applied.changes}
            template={applied.template}
            bankId={applied.bank_id}
            existing
            dryRun={false}
            onDismiss={() => setApplied(null)}
          />
        )}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Card withBorder padding="lg" component="section" aria-label="About">
            <Title order={2} size="h4" mb="sm">
              About
            </Title>
            <DataList size="sm" labelWidth={110} data-testid="bank-about">
              <Fact label="Bank id">
                <Code>{data.bank_id}</Code>
              </Fact>
              <Fact label="Name">{data.name}</Fact>
              <Fact label="Owner">{data.owner ?? "—"}</Fact>
              <Fact label="Policy">
                <Anchor component={Link} href={bankPolicyHref(bankId)} size="sm" data-testid="bank-has-policy">
                  {data.has_policy ? "Set" : "None yet"}
                </Anchor>
              </Fact>
              <Fact label="Created">{formatTimestamp(data.created_at)}</Fact>
              <Fact label="Updated">{formatTimestamp(data.updated_at)}</Fact>
            </DataList>
          </Card>
          <Card withBorder padding="lg" component="section" aria-label="Provenance">
            <Title order={2} size="h4" mb="sm">
              Provenance
            </Title>
            <BankProvenance bank={data} />
          </Card>
        </SimpleGrid>
        <LocalEditsNotice bank={data} edits={edits} />
        <Section
          title="Config overrides"
          count={data.config_unreadable ? undefined : Object.keys(data.config).length}
          actions={
            !data.config_unreadable && (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconPencil size={14} aria-hidden />}
                onClick={() => setEditing({ kind: "config" })}
              >
                Edit config
              </Button>
            )
          }
        >
          {data.config_unreadable ? <ConfigUnreadable /> : <ConfigTable config={data.config} changed={edits?.changed.config} />}
        </Section>
        <Section
          title="Mental models"
          count={data.mental_models.length}
          actions={
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => setEditing({ kind: "entry", list: "mental_models", entry: null })}
            >
              Add mental model
            </Button>
          }
        >
          <MentalModels
            models={data.mental_models}
            changed={edits?.changed.mental_models}
            actions={(entry) => <EntryActions list="mental_models" entry={entry} onEdit={setEditing} />}
          />
        </Section>
        <Section
          title="Directives"
          count={data.directives.length}
          actions={
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => setEditing({ kind: "entry", list: "directives", entry: null })}
            >
              Add directive
            </Button>
          }
        >
          <Directives
            directives={data.directives}
            changed={edits?.changed.directives}
            actions={(entry) => <EntryActions list="directives" entry={entry} onEdit={setEditing} />}
          />
        </Section>
        <Section title="History">
          <BankHistory bankId={bankId} />
        </Section>
      </Stack>
      {/* The form asks before discarding a chosen template on Escape and Cancel; a click outside must not skip that. */}
      <Modal
        opened={applying}
        onClose={() => setApplying(false)}
        closeOnClickOutside={false}
        title={`Apply a template to ${bankId}`}
        size="xl"
        centered
      >
        <Stack>
          <Alert color="blue" variant="light">
            Config fields the template sets replace the bank&apos;s; mental models and directives it names replace those with the same id or
            name; everything else stays.
          </Alert>
          <ApplyTemplateForm
            bankId={bankId}
            onCancel={() => setApplying(false)}
            onApplied={(result) => {
              setApplying(false);
              setApplied(result);
            }}
          />
        </Stack>
      </Modal>
      <SaveAsTemplateModal
        opened={savingAsTemplate}
        onClose={() => setSavingAsTemplate(false)}
        bankId={bankId}
        bankName={data.name}
        onSaved={setSavedTemplate}
      />
      <BankEditDialog opened={editing !== null} editing={editing} bank={data} onClose={() => setEditing(null)} />
      {confirmDelete.modal}
    </>
  );
}
