"use client";
import { Alert, Anchor, Badge, Button, Group, Modal, Paper, Stack, Text } from "@mantine/core";
import Link from "next/link";
import { useState } from "react";
import { useNarrowScreen } from "@/components/console/useNarrowScreen";
import { useBanks } from "@/lib/client/hooks/banks";
import type { PreviewOutcome, UpdatePreviewData } from "@/lib/client/hooks/templates";
import type { ScopeKind } from "@/lib/contracts/scope";
import { plural } from "@/lib/shared/plural";
import { formatJson } from "./json-text";
import { ManifestDiff } from "./ManifestDiff";
import { MetadataDiff } from "./MetadataDiff";
import { templateUpdatePath } from "./paths";
import { describeUpdate } from "./update-summary";

const short = (revision: string) => revision.slice(0, 8);

interface Props {
  scope: ScopeKind;
  opened: boolean;
  /** The previews of the templates the check found updates for (failed ones with why). */
  previews: PreviewOutcome[];
  onCancel: () => void;
  /** Updates these templates (those without local edits). */
  onConfirm: (ids: string[]) => void;
}

/**
 * Before "Update all" writes anything: one line per template that would change and how
 * (revisions, what the update changes, local edits that make it skip), each with its diff one
 * click away; then "Update N templates" or Cancel, which changes nothing.
 */
export function BulkUpdateConfirm({ scope, opened, previews, onCancel, onConfirm }: Props) {
  const narrow = useNarrowScreen();
  const ready = previews.flatMap((o) => (o.preview?.has_update ? [{ id: o.id, preview: o.preview }] : []));
  const failed = previews.flatMap((o) => (o.preview ? [] : [o]));
  const toUpdate = ready.filter((r) => !r.preview.locally_modified).map((r) => r.id);
  const edited = ready.length - toUpdate.length;
  const noun = scope === "server" ? "server template" : "template";
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={`Update ${plural(ready.length, noun)} from their sources?`}
      size="xl"
      fullScreen={narrow}
      centered
    >
      <Stack gap="sm" data-testid="bulk-update-confirm">
        <Text size="sm">
          {toUpdate.length > 0
            ? `${plural(toUpdate.length, noun)} will be updated as listed here.`
            : "No template can be updated without replacing local edits."}
          {edited > 0 &&
            ` ${plural(edited, "template has", "templates have")} local edits and will be skipped; you can replace them afterwards.`}
        </Text>
        {toUpdate.length > 0 && <UpdateReach scope={scope} ids={toUpdate} />}
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: "none" }} aria-label="Templates to update">
          {ready.map(({ id, preview }) => (
            <PlannedUpdate key={id} scope={scope} id={id} preview={preview} />
          ))}
        </Stack>
        {failed.length > 0 && (
          <Alert color="red" title={`${plural(failed.length, "template")} could not be previewed and will not be updated`}>
            <Stack gap={2} component="ul" p={0} m={0} style={{ listStyle: "none" }}>
              {failed.map((o) => (
                <Text key={o.id} component="li" size="sm">
                  <code>{o.id}</code>: {o.preview === null && o.detail}
                </Text>
              ))}
            </Stack>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={() => onConfirm(toUpdate)} disabled={toUpdate.length === 0}>
            Update {plural(toUpdate.length, noun)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The banks an update's reach names before it says "and N more". */
const NAMED_BANKS = 10;

/**
 * Whom the update reaches: the server's templates are every user's, so updating them changes
 * them for everybody; and the banks made from these templates (those the user may see), which
 * keep what they hold until the new version is rolled out to them.
 */
function UpdateReach({ scope, ids }: { scope: ScopeKind; ids: string[] }) {
  const banks = useBanks();
  const refs = new Set(ids.map((id) => `${scope}/${id}`));
  const made = (banks.data?.banks ?? []).filter((bank) => bank.last_applied && refs.has(bank.last_applied.template));
  const named = made.slice(0, NAMED_BANKS).map((bank) => `${bank.bank_id} (from ${bank.last_applied?.template.slice(scope.length + 1)})`);
  return (
    <Alert
      color={scope === "server" ? "orange" : "blue"}
      title={scope === "server" ? "For everybody on this server" : undefined}
      data-testid="bulk-update-reach"
    >
      <Stack gap={4}>
        {scope === "server" && (
          <Text size="sm">
            These are the server&apos;s templates, which every user of this server uses: the update changes them for everybody, not only for
            you.
          </Text>
        )}
        <Text size="sm" data-testid="bulk-update-banks">
          {banks.isPending
            ? "Looking for the banks made from these templates…"
            : banks.isError
              ? "The banks made from these templates could not be listed."
              : made.length === 0
                ? "No bank you can see was made from these templates."
                : `${plural(made.length, "bank was", "banks were")} made from these templates: ${named.join(", ")}${
                    made.length > NAMED_BANKS ? ` and ${made.length - NAMED_BANKS} more` : ""
                  }. The update leaves them as they are; each then has the new version to roll out, from its template's page.`}
        </Text>
      </Stack>
    </Alert>
  );
}

/** One template's line: revisions and what changes, with the diff shown on request. */
function PlannedUpdate({ scope, id, preview }: { scope: ScopeKind; id: string; preview: UpdatePreviewData }) {
  const [showDiff, setShowDiff] = useState(false);
  const changes = describeUpdate(preview.current, preview.latest);
  return (
    <Paper component="li" withBorder p="xs" data-testid="bulk-update-line" data-template={id}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" style={{ wordBreak: "break-word" }}>
          <strong>{id}</strong>: revision <code>{short(preview.current_revision)}</code> → <code>{short(preview.latest_revision)}</code>
          {changes.length > 0 ? `; ${changes.join("; ")}` : "; no change in content"}
        </Text>
        <Group gap="xs">
          {preview.locally_modified && (
            <Badge color="yellow" variant="light" tt="none">
              Has local edits: skipped unless forced
            </Badge>
          )}
          <Button size="compact-xs" variant="subtle" onClick={() => setShowDiff((shown) => !shown)} aria-expanded={showDiff}>
            {showDiff ? "Hide diff" : "Show diff"}
          </Button>
          <Anchor component={Link} href={templateUpdatePath(scope, id)} size="xs">
            Review page
          </Anchor>
        </Group>
      </Group>
      {showDiff && (
        <Stack gap="xs" mt="xs">
          <MetadataDiff before={preview.current} after={preview.latest} beforeLabel="Installed" afterLabel="Latest" />
          <ManifestDiff
            before={formatJson(preview.current.manifest)}
            after={formatJson(preview.latest.manifest)}
            beforeLabel="Installed"
            afterLabel="Latest"
          />
        </Stack>
      )}
    </Paper>
  );
}
