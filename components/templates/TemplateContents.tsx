"use client";
import { Button, Code, Group, Stack, Text, Title } from "@mantine/core";
import { useClipboard } from "@mantine/hooks";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { useId, useSyncExternalStore } from "react";
import { SectionCard } from "@/components/console/SectionCard";
import { EntryBadges } from "@/components/marketplace/EntryBadges";
import type { TemplateData } from "@/lib/client/hooks/templates";
import type { ScopeKind } from "@/lib/contracts/scope";
import { formatJson } from "./json-text";

/** A template's description, labels and manifest, read-only: what a member sees of a server template. */
export function TemplateContents({ template: t }: { template: TemplateData }) {
  return (
    <SectionCard title="Contents">
      <Stack gap="sm">
        <Text size="sm" c={t.description ? undefined : "dimmed"}>
          {t.description ?? "No description."}
        </Text>
        <EntryBadges entry={t} />
        <Code
          block
          aria-label={`Manifest of ${t.id}, JSON`}
          data-testid="template-manifest"
          style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}
        >
          {formatJson(t.manifest)}
        </Code>
      </Stack>
    </SectionCard>
  );
}

/**
 * Copies text and says so: the button turns to "Copied" and a status line is announced; when the
 * browser refuses the clipboard, an alert says to copy by hand.
 */
function CopyTextButton({ text, label, copiedMessage }: { text: string; label: string; copiedMessage: string }) {
  const clipboard = useClipboard({ timeout: 4000 });
  return (
    <Group gap="xs">
      <Button
        size="xs"
        variant={clipboard.copied ? "filled" : "default"}
        color={clipboard.copied ? "teal" : undefined}
        leftSection={clipboard.copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
        onClick={() => clipboard.copy(text)}
      >
        {clipboard.copied ? "Copied" : label}
      </Button>
      <Text size="sm" c={clipboard.error ? "red" : "teal"} role={clipboard.error ? "alert" : "status"}>
        {clipboard.error
          ? "The browser did not allow copying: select the text and copy it yourself."
          : clipboard.copied
            ? copiedMessage
            : ""}
      </Text>
    </Group>
  );
}

/** "Copy manifest": the template's manifest as formatted JSON, to paste into a file or the API. */
export function CopyManifestButton({ template: t }: { template: TemplateData }) {
  return (
    <CopyTextButton text={formatJson(t.manifest)} label="Copy manifest" copiedMessage={`Manifest of ${t.id} copied to the clipboard.`} />
  );
}

const noSubscription = () => () => {};
/** This server's origin, as the browser reached it; a placeholder while the page renders on the server. */
function useOrigin(): string {
  return useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "https://bank-templates.example",
  );
}

// Shown in the commands in place of a bank id: the reader picks their own.
const BANK_ID = "my-bank";

/** The curl request that creates a bank from the template, dry run first (see the API reference). */
function curlCommand(origin: string, reference: string): string {
  const body = JSON.stringify({ bank_id: BANK_ID, template: reference });
  return [
    `curl -X POST '${origin}/ext/svc/banks?dry_run=true' \\`,
    `  -H "Authorization: Bearer $BANK_TEMPLATES_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${body}'`,
  ].join("\n");
}

/** The CLI commands for the template (cli/README.md): show it, then create a bank from it, dry run first. */
function cliCommands(scope: ScopeKind, id: string): string {
  const reference = `${scope}/${id}`;
  return [
    `bank-templates templates show ${id}${scope === "server" ? " --scope server" : ""}`,
    `bank-templates banks create ${BANK_ID} --template ${reference} --dry-run`,
    `bank-templates banks create ${BANK_ID} --template ${reference}`,
  ].join("\n");
}

function CommandBlock({ title, text, label }: { title: string; text: string; label: string }) {
  const headingId = useId();
  return (
    <Stack gap={6} role="group" aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId}>
        {title}
      </Title>
      <Code block aria-label={label} style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
        {text}
      </Code>
      <CopyTextButton text={text} label="Copy" copiedMessage={`${title} copied to the clipboard.`} />
    </Stack>
  );
}

/**
 * How to use the template outside the console: the API request and the CLI commands that create a
 * bank from it, with this server's origin and a placeholder for the API key.
 */
export function TemplateUsage({ scope, template: t }: { scope: ScopeKind; template: TemplateData }) {
  const origin = useOrigin();
  const reference = `${scope}/${t.id}`;
  return (
    <SectionCard title="Use it from the API or the CLI" data-testid="template-usage">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Replace <Code>{BANK_ID}</Code> with the bank's id. The API needs an API key (Account › API keys) in{" "}
          <Code>BANK_TEMPLATES_API_KEY</Code>; the CLI uses its login, or that key with <Code>BANK_TEMPLATES_URL</Code>. Both are a dry run
          first: they show what the bank would get and write nothing.
        </Text>
        <CommandBlock title="curl" text={curlCommand(origin, reference)} label={`curl request creating a bank from ${reference}`} />
        <CommandBlock title="CLI" text={cliCommands(scope, t.id)} label={`CLI commands for ${reference}`} />
      </Stack>
    </SectionCard>
  );
}
