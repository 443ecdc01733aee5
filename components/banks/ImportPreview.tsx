"use client";
import { Badge, Card, CloseButton, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconCheck, IconMinus } from "@tabler/icons-react";
import { useId } from "react";
import type { ImportChanges, ImportResult } from "@/lib/contracts/banks/schemas";
import { ConfigChanges, EntryChanges } from "./ImportChanges";

function Names({ title, names, empty }: { title: string; names: string[]; empty: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {title}{" "}
        <Badge size="sm" variant="light" color={names.length ? "blue" : "gray"} aria-hidden>
          {names.length}
        </Badge>
      </Text>
      {names.length ? (
        <List size="sm" spacing={2} aria-label={title}>
          {names.map((name) => (
            <List.Item key={name}>
              <Text span size="sm" ff="monospace" style={{ wordBreak: "break-word" }}>
                {name}
              </Text>
            </List.Item>
          ))}
        </List>
      ) : (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      )}
    </Stack>
  );
}

interface ImportPreviewProps {
  result: ImportResult;
  changes: ImportChanges;
  template: string;
  bankId: string;
  /** Whether the bank exists already (so Apply updates it) as far as the caller can see. */
  existing: boolean;
  /** A dry run ("will be") or what was just done ("was"). */
  dryRun: boolean;
  /** Offers a close button that calls this. */
  onDismiss?: () => void;
}

/**
 * What applying a template does to a bank: each config field with its value before and after,
 * the mental models and directives created and updated, and the content of each that changes.
 */
export function ImportPreview({ result, changes, template, bankId, existing, dryRun, onDismiss }: ImportPreviewProps) {
  const headingId = useId();
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={headingId} data-testid={dryRun ? "import-preview" : "import-result"}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Title order={2} size="h4" id={headingId} style={{ wordBreak: "break-word" }}>
              {dryRun ? "Preview" : "Applied"}: {template} → {bankId}
            </Title>
            <Text size="sm" c="dimmed">
              {dryRun
                ? existing
                  ? `Bank ${bankId} exists: Apply updates it. Nothing has been written yet.`
                  : `Bank ${bankId} does not exist yet: Apply creates it. Nothing has been written yet.`
                : existing
                  ? `Bank ${bankId} was updated.`
                  : `Bank ${bankId} was created.`}
            </Text>
          </div>
          {onDismiss && <CloseButton aria-label="Dismiss" onClick={onDismiss} />}
        </Group>
        <ImportChangesBody result={result} changes={changes} dryRun={dryRun} label={bankId} />
      </Stack>
    </Card>
  );
}

/**
 * What an import does, below its heading: whether config overrides apply and each that changes,
 * the mental models and directives created and updated, and each entry's content before and after.
 * `label` names the bank or banks it is about, so several on one page keep apart.
 */
export function ImportChangesBody({
  result,
  changes,
  dryRun,
  label,
}: {
  result: ImportResult;
  changes: ImportChanges;
  dryRun: boolean;
  label: string;
}) {
  const will = dryRun ? "will be" : "were";
  return (
    <>
      <Group gap="xs" data-testid="config-applied">
        <ThemeIcon size="sm" radius="xl" variant="light" color={result.config_applied ? "green" : "gray"} aria-hidden>
          {result.config_applied ? <IconCheck size={14} /> : <IconMinus size={14} />}
        </ThemeIcon>
        <Text size="sm">
          Config overrides:{" "}
          <strong>{result.config_applied ? (dryRun ? "yes, will be applied" : "yes, applied") : "no, left as they are"}</strong>
        </Text>
      </Group>
      {result.config_applied && <ConfigChanges changes={changes} dryRun={dryRun} />}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <Names title={`Mental models created`} names={result.mental_models_created} empty={`None ${will} created.`} />
        <Names title={`Mental models updated`} names={result.mental_models_updated} empty={`None ${will} updated.`} />
        <Names title={`Directives created`} names={result.directives_created} empty={`None ${will} created.`} />
        <Names title={`Directives updated`} names={result.directives_updated} empty={`None ${will} updated.`} />
      </SimpleGrid>
      <EntryChanges changes={changes} dryRun={dryRun} of={label} />
    </>
  );
}
