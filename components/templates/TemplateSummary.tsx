"use client";
import { Badge, Code, DataList, Group, Stack, Text } from "@mantine/core";
import { IconPlug } from "@tabler/icons-react";
import { Fact } from "@/components/banks/Fact";
import { describeSummary, type TemplateSummary as Summary, summarizeTemplate } from "./template-summary";

/** How many names of a list are spelt out before "and 12 more". */
const NAMES_SHOWN = 8;

function Names({ names, untouched }: { names: string[] | null; untouched: string }) {
  if (names === null)
    return (
      <Text size="sm" c="dimmed">
        {untouched}
      </Text>
    );
  if (names.length === 0)
    return (
      <Text size="sm" c="dimmed">
        none
      </Text>
    );
  const rest = names.length - NAMES_SHOWN;
  return (
    <Text size="sm" style={{ overflowWrap: "anywhere" }}>
      {names.slice(0, NAMES_SHOWN).join(", ")}
      {rest > 0 && `, and ${rest} more`}
    </Text>
  );
}

function None() {
  return (
    <Text size="sm" c="dimmed">
      none
    </Text>
  );
}

function Labels({ values, integration = false }: { values: string[]; integration?: boolean }) {
  if (values.length === 0) return <None />;
  return (
    <Group gap={4}>
      {values.map((value) => (
        <Badge
          key={value}
          size="sm"
          tt="none"
          variant={integration ? "light" : "default"}
          color={integration ? "grape" : undefined}
          leftSection={integration ? <IconPlug size={11} aria-hidden /> : undefined}
          style={{ maxWidth: "100%" }}
        >
          {integration ? value : `#${value}`}
        </Badge>
      ))}
    </Group>
  );
}

/**
 * What a template holds, from its content: "3 mental models, 2 directives, 4 bank settings",
 * then each part by name, the bank settings it sets, and its category, integrations and tags.
 * The template page and the Marketplace preview show it; a catalog entry whose manifest could
 * not be had holds nothing known.
 */
export function TemplateSummary({ content }: { content: Parameters<typeof summarizeTemplate>[0] }) {
  const summary: Summary = summarizeTemplate(content);
  return (
    <Stack gap="xs" data-testid="template-summary">
      <Text fw={600} data-testid="template-summary-line">
        {describeSummary(summary)}
      </Text>
      <DataList size="sm" labelWidth={120}>
        <Fact label="Mental models">
          <Names names={summary.mentalModels} untouched="leaves a bank's mental models as they are" />
        </Fact>
        <Fact label="Directives">
          <Names names={summary.directives} untouched="leaves a bank's directives as they are" />
        </Fact>
        <Fact label="Bank settings">
          {summary.bankSettings.length === 0 ? (
            <Text size="sm" c="dimmed">
              sets none; a bank keeps its own
            </Text>
          ) : (
            <Group gap={4}>
              {summary.bankSettings.map((key) => (
                <Code key={key} style={{ overflowWrap: "anywhere" }}>
                  {key}
                </Code>
              ))}
            </Group>
          )}
        </Fact>
        <Fact label="Category">{summary.category ?? <None />}</Fact>
        <Fact label="Integrations">
          <Labels values={summary.integrations} integration />
        </Fact>
        <Fact label="Tags">
          <Labels values={summary.tags} />
        </Fact>
      </DataList>
    </Stack>
  );
}
