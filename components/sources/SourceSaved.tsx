"use client";
import { Alert, Button, Group, Loader, Stack, Text } from "@mantine/core";
import { IconAlertTriangle, IconCircleCheck } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { type CatalogCheck, type SourceData, useCatalogCheck } from "@/lib/client/hooks/sources";
import type { ScopeKind } from "@/lib/contracts/scope";
import { allowedHostsHint } from "./allowed-hosts";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The check's outcome in one sentence: "8 templates found", or why the catalog could not be read. */
function CheckOutcome({ check }: { check: CatalogCheck }) {
  if (check.ok) {
    const title = check.templates === 0 ? "The catalog is there, but lists no templates" : `${plural(check.templates, "template")} found`;
    return (
      <Alert color={check.templates === 0 ? "yellow" : "green"} icon={<IconCircleCheck aria-hidden />} title={title} role="status">
        {check.unusable > 0
          ? `${plural(check.unusable, "of them cannot", "of them cannot")} be installed; the marketplace shows why.`
          : check.templates > 0
            ? "You can browse and install them from the marketplace."
            : "Check that the URL points at the right folder or branch."}
      </Alert>
    );
  }
  const hint = allowedHostsHint(check.reason);
  return (
    <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title="Could not read the catalog" role="alert">
      <Stack gap={6}>
        <Text size="sm" style={{ wordBreak: "break-word" }} data-testid="source-check-reason">
          {check.reason}
        </Text>
        {hint && (
          <Text size="sm" fw={500} data-testid="source-check-hint">
            {hint}
          </Text>
        )}
        <Text size="sm">The source is saved all the same: edit it to fix the URL or the token.</Text>
      </Stack>
    </Alert>
  );
}

/**
 * Shown in the add and edit dialogs once the source is saved: its catalog fetched once from the
 * marketplace, and what came of it. On a failure, "Edit source" opens the source to fix it.
 */
export function SourceSaved({
  scope,
  source,
  verb,
  onEdit,
  onClose,
}: {
  scope: ScopeKind;
  source: SourceData;
  verb: "added" | "saved";
  onEdit?: (source: SourceData) => void;
  onClose: () => void;
}) {
  const checkCatalog = useCatalogCheck(scope);
  const [check, setCheck] = useState<CatalogCheck | null>(null);
  // Once per saved source: a dialog shows the check of the source it just wrote.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the check runs again only for another source or save
  useEffect(() => {
    let current = true;
    setCheck(null);
    void checkCatalog(source.name).then((result) => current && setCheck(result));
    return () => {
      current = false;
    };
  }, [source.name, source.updated_at]);

  return (
    <Stack data-testid="source-saved">
      <Text size="sm">
        Source <strong>{source.name}</strong> {verb}.
      </Text>
      {check === null ? (
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden />
          <Text size="sm">Fetching its catalog…</Text>
        </Group>
      ) : (
        <CheckOutcome check={check} />
      )}
      <Group justify="flex-end">
        {check && !check.ok && onEdit && (
          <Button variant="default" onClick={() => onEdit(source)}>
            Edit source
          </Button>
        )}
        <Button onClick={onClose}>{check && !check.ok ? "Close" : "Done"}</Button>
      </Group>
    </Stack>
  );
}
