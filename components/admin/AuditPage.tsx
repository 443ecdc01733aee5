"use client";
import { Button, Group, NativeSelect, Stack, TextInput } from "@mantine/core";
import { parseAsString, parseAsStringLiteral, useQueryStates } from "nuqs";
import { type FormEvent, useState } from "react";
import { useConsoleUser } from "@/components/console/console-user";
import { lazySection } from "@/components/console/lazy";
import { PageHeader } from "@/components/console/PageHeader";
import { QueryView } from "@/components/console/QueryView";
import { LoadingState } from "@/components/console/states";
import { withUrlState } from "@/components/console/url-state";
import { FormFieldset } from "@/components/forms/FormFieldset";
import { type AuditFilters, auditExportUrl, useAuditLog } from "@/lib/client/hooks/audit";
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from "@/lib/contracts/audit-actions";
import { ACTION_LABELS, TARGET_TYPE_LABELS } from "./audit-links";

// The table loads beside the entries it shows, not with the page: it is drawn once they have arrived.
const AuditTable = lazySection(() => import("./AuditTable").then((m) => m.AuditTable), <LoadingState label="Loading the audit log…" />);

const FILTER_KEYS = ["actor", "action", "target_type", "target", "from", "to"] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/**
 * What the page shows, all in the URL: the filters and the page (the cursor it starts at). A reload
 * shows the same entries; every Filter and page turn is a history entry, so Back returns to the one before.
 * `from` and `to` are instants (ISO 8601, UTC); the form shows them in the viewer's local time.
 */
const auditParams = {
  actor: parseAsString,
  action: parseAsString,
  target_type: parseAsStringLiteral(AUDIT_TARGET_TYPES),
  target: parseAsString,
  from: parseAsString,
  to: parseAsString,
  cursor: parseAsString,
};

/** The Action filter's choices: every action in words, alphabetically. */
const ACTION_CHOICES = AUDIT_ACTIONS.map((action) => ({ value: action, label: ACTION_LABELS[action] })).sort((a, b) =>
  a.label.localeCompare(b.label),
);

/** An instant as a datetime-local field shows it: the viewer's local time, to the minute. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A datetime-local field's value (the viewer's local time) as an instant, or null when empty. */
function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

type Draft = Record<FilterKey, string>;

/** The filter form: edits a draft, applied (to the URL) on Filter. Keyed by the applied filters, so Back resets it. */
function AuditFilterForm({ applied, onApply }: { applied: AuditFilters; onApply: (filters: Draft) => void }) {
  const [draft, setDraft] = useState<Draft>({
    actor: applied.actor ?? "",
    action: applied.action ?? "",
    target_type: applied.target_type ?? "",
    target: applied.target ?? "",
    from: toLocalInput(applied.from),
    to: toLocalInput(applied.to),
  });
  const field = (key: FilterKey) => ({
    value: draft[key],
    onChange: (e: { currentTarget: { value: string } }) => setDraft({ ...draft, [key]: e.currentTarget.value }),
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form onSubmit={apply} aria-label="Filter the audit log">
      <FormFieldset>
        <Group align="flex-end" mb="md" gap="sm">
          <TextInput label="Actor" description="User or service account id" {...field("actor")} />
          <NativeSelect
            label="Action"
            description="What was done"
            {...field("action")}
            data={[{ value: "", label: "Any action" }, ...ACTION_CHOICES]}
          />
          <NativeSelect
            label="Target type"
            description="What it was done to"
            {...field("target_type")}
            data={[
              { value: "", label: "Any kind" },
              ...AUDIT_TARGET_TYPES.map((type) => ({ value: type, label: TARGET_TYPE_LABELS[type] })),
            ]}
          />
          <TextInput
            label="Target"
            description="A path, and everything below it"
            placeholder="/ext/svc/admin/templates/support"
            {...field("target")}
            style={{ flex: "1 1 260px" }}
          />
          <TextInput type="datetime-local" label="From" description="Your local time, inclusive" {...field("from")} />
          <TextInput type="datetime-local" label="To" description="Your local time, exclusive" {...field("to")} />
          <Button type="submit">Filter</Button>
        </Group>
      </FormFieldset>
    </form>
  );
}

/** Admin › Audit log: who wrote what and when, filtered by actor, action, target and time (kept in the URL), newest first. */
function AuditPageView() {
  const me = useConsoleUser();
  const [state, setState] = useQueryStates(auditParams, { history: "push" });
  const applied: AuditFilters = Object.fromEntries(
    FILTER_KEYS.map((key) => [key, state[key] || undefined]).filter(([, value]) => value !== undefined),
  );
  const log = useAuditLog(applied, state.cursor);
  const apply = (draft: Draft) =>
    // New filters start again at the newest entry.
    setState({
      actor: draft.actor.trim() || null,
      action: draft.action || null,
      target_type: AUDIT_TARGET_TYPES.find((type) => type === draft.target_type) ?? null,
      target: draft.target.trim() || null,
      from: fromLocalInput(draft.from),
      to: fromLocalInput(draft.to),
      cursor: null,
    });
  const next = log.data?.next_cursor ?? null;

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every successful write through the API and the console, and every console sign-in and sign-out: who made it, what it did, to which resource, and the resource before and after. Kept for 365 days."
        actions={
          <Button component="a" href={auditExportUrl(applied)} download="audit-log.ndjson" variant="default">
            Export
          </Button>
        }
      />
      <AuditFilterForm key={JSON.stringify(applied)} applied={applied} onApply={apply} />
      <QueryView
        query={log}
        loading="Loading the audit log…"
        errorTitle="Could not load the audit log"
        isEmpty={(data) => data.entries.length === 0}
        empty={{
          title: "No entries",
          description: state.cursor ? "No older write matches these filters." : "No write matches these filters.",
        }}
      >
        {(data) => (
          <Stack gap="sm">
            <AuditTable entries={data.entries} viewerId={me.id} />
            {(state.cursor || next) && (
              <Group justify="center" role="navigation" aria-label="Audit log pages">
                {state.cursor && (
                  <Button variant="default" onClick={() => setState({ cursor: null })}>
                    Newest entries
                  </Button>
                )}
                {next && (
                  <Button variant="light" loading={log.isPlaceholderData} onClick={() => setState({ cursor: next })}>
                    Older entries
                  </Button>
                )}
              </Group>
            )}
          </Stack>
        )}
      </QueryView>
    </>
  );
}

export const AuditPage = withUrlState(AuditPageView);
