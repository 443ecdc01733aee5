"use client";
import { Code, Stack, Text } from "@mantine/core";
import { SectionCard } from "@/components/console/SectionCard";
import { EntryBadges } from "@/components/marketplace/EntryBadges";
import type { TemplateData } from "@/lib/client/hooks/templates";
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
