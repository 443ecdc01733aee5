"use client";
import { Accordion, Alert, Badge, Code, DataList, Group, Stack, Text } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconAlertTriangle } from "@tabler/icons-react";
import { Fragment, type ReactNode } from "react";
import { ActiveBadge } from "@/components/console/ActiveBadge";
import { ResourceTable } from "@/components/console/ResourceTable";
import { EmptyList } from "@/components/console/states";
import { Table } from "@/components/console/Table";

type Entry = Record<string, unknown>;

/** What the page adds to each entry when the bank may be edited: its Edit and Remove buttons; and which entries were changed here. */
interface EntryExtras {
  actions?: (entry: Entry) => ReactNode;
  /** The keys (ids, names, config fields) edited here since the last apply. */
  changed?: ReadonlySet<string>;
}

/** Marks an entry edited in this bank since its template last wrote it. */
function ChangedHere({ changed, name }: { changed: ReadonlySet<string> | undefined; name: string }) {
  if (!changed?.has(name)) return null;
  return (
    <Badge variant="light" color="grape" size="sm" tt="none" data-testid="changed-here">
      changed here
    </Badge>
  );
}

/** A value from a manifest as it reads best: text as text, anything else as JSON. */
function JsonValue({ value }: { value: unknown }) {
  if (typeof value === "string")
    return (
      <Text size="sm" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
        {value}
      </Text>
    );
  if (value === null || typeof value !== "object") return <Code>{JSON.stringify(value)}</Code>;
  return (
    <Code block style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
      {JSON.stringify(value, null, 2)}
    </Code>
  );
}

function Tags({ value }: { value: unknown }) {
  if (!Array.isArray(value) || value.length === 0)
    return (
      <Text size="sm" c="dimmed">
        none
      </Text>
    );
  return (
    <Group gap={4}>
      {value.map((tag) => (
        <Badge key={String(tag)} variant="light" size="sm" tt="none">
          {String(tag)}
        </Badge>
      ))}
    </Group>
  );
}

/**
 * A config key that may wrap only between its words (`breakable`): a line break may follow
 * each `_`, `.` or `-`. (Breaking anywhere let a narrow table squeeze the column to one
 * character a line.) Where there is room (from the `sm` breakpoint up) it never wraps: even
 * under `white-space: nowrap` Chromium breaks at a <wbr>, so there are none.
 */
function KeyName({ name, breakable }: { name: string; breakable: boolean }) {
  if (!breakable) return name;
  const parts = name.split(/(?<=[_.-])/);
  return parts.map((part, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string; their position is their identity.
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

/** The bank's config overrides, key by key. */
export function ConfigTable({ config, changed }: { config: Record<string, unknown>; changed?: ReadonlySet<string> }) {
  const keys = Object.keys(config).sort();
  // Phones first (the server's render, and a phone's): keys break between words until the width is known.
  const wide = useMediaQuery("(min-width: 48em)") ?? false;
  if (keys.length === 0) {
    return <EmptyList title="No config overrides" description="No template applied so far set anything in its bank section." />;
  }
  return (
    <ResourceTable
      minWidth={300}
      striped
      verticalSpacing="xs"
      testId="bank-config"
      caption="Config overrides, by key"
      columns={[{ label: "Key" }, { label: "Value" }]}
    >
      {keys.map((key) => (
        <Table.Tr key={key}>
          <Table.Th scope="row" style={{ verticalAlign: "top" }}>
            <Text size="sm" ff="monospace">
              <KeyName name={key} breakable={!wide} />
            </Text>
            <ChangedHere changed={changed} name={key} />
          </Table.Th>
          <Table.Td>
            <JsonValue value={config[key]} />
          </Table.Td>
        </Table.Tr>
      ))}
    </ResourceTable>
  );
}

/**
 * In place of the config of a Hindsight bank whose config Hindsight would not show (its
 * bank-config API turned off, CONTRACT §19): what that means for the bank's other actions.
 */
export function ConfigUnreadable() {
  return (
    <Alert
      color="yellow"
      icon={<IconAlertTriangle aria-hidden />}
      role="status"
      title="Hindsight would not show this bank's config"
      data-testid="config-unreadable"
    >
      Its bank-config API is turned off (HINDSIGHT_API_ENABLE_BANK_CONFIG_API=false), so the overrides are unknown here. A download or
      template made from this bank leaves config out.
    </Alert>
  );
}

const MODEL_FIELDS = ["id", "name", "source_query", "tags", "max_tokens", "trigger"];

/** Mental models as applied: one accordion item each, with every field. */
export function MentalModels({ models, actions, changed }: { models: Entry[] } & EntryExtras) {
  if (models.length === 0) {
    return <EmptyList title="No mental models" description="The templates applied so far defined none." />;
  }
  return (
    <Accordion variant="separated" multiple data-testid="bank-mental-models">
      {models.map((model, i) => {
        const id = String(model.id ?? i);
        const others = Object.keys(model).filter((k) => !MODEL_FIELDS.includes(k));
        return (
          <Accordion.Item key={id} value={id}>
            <Accordion.Control>
              <Group gap="xs" wrap="wrap">
                <Text fw={600} size="sm">
                  {String(model.name ?? id)}
                </Text>
                <Code>{id}</Code>
                <ChangedHere changed={changed} name={id} />
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <DataList size="sm" labelWidth={140} orientation="horizontal">
                <DataList.Item>
                  <DataList.ItemLabel>Source query</DataList.ItemLabel>
                  <DataList.ItemValue>
                    <JsonValue value={model.source_query} />
                  </DataList.ItemValue>
                </DataList.Item>
                <DataList.Item>
                  <DataList.ItemLabel>Tags</DataList.ItemLabel>
                  <DataList.ItemValue>
                    <Tags value={model.tags} />
                  </DataList.ItemValue>
                </DataList.Item>
                <DataList.Item>
                  <DataList.ItemLabel>Max tokens</DataList.ItemLabel>
                  <DataList.ItemValue>
                    {model.max_tokens === undefined ? (
                      <Text size="sm" c="dimmed">
                        default (2048)
                      </Text>
                    ) : (
                      <JsonValue value={model.max_tokens} />
                    )}
                  </DataList.ItemValue>
                </DataList.Item>
                <DataList.Item>
                  <DataList.ItemLabel>Trigger</DataList.ItemLabel>
                  <DataList.ItemValue>
                    {model.trigger === undefined ? (
                      <Text size="sm" c="dimmed">
                        default
                      </Text>
                    ) : (
                      <JsonValue value={model.trigger} />
                    )}
                  </DataList.ItemValue>
                </DataList.Item>
                {others.map((key) => (
                  <DataList.Item key={key}>
                    <DataList.ItemLabel>
                      <Text span ff="monospace" size="sm">
                        {key}
                      </Text>
                    </DataList.ItemLabel>
                    <DataList.ItemValue>
                      <JsonValue value={model[key]} />
                    </DataList.ItemValue>
                  </DataList.Item>
                ))}
              </DataList>
              {actions?.(model)}
            </Accordion.Panel>
          </Accordion.Item>
        );
      })}
    </Accordion>
  );
}

/** Directives as applied: name, content, priority, whether active, tags. */
export function Directives({ directives, actions, changed }: { directives: Entry[] } & EntryExtras) {
  if (directives.length === 0) {
    return <EmptyList title="No directives" description="The templates applied so far defined none." />;
  }
  return (
    <ResourceTable
      minWidth={340}
      striped
      verticalSpacing="sm"
      testId="bank-directives"
      caption="Directives, in the order first added"
      columns={[
        { label: "Directive" },
        { label: "Content" },
        { label: "Priority", visibleFrom: "sm" },
        { label: "Active", visibleFrom: "sm" },
        { label: "Tags", visibleFrom: "md" },
      ]}
    >
      {directives.map((directive, i) => {
        const active = directive.is_active !== false;
        return (
          <Table.Tr key={String(directive.name ?? i)}>
            <Table.Th scope="row" style={{ verticalAlign: "top" }}>
              <Stack gap={2}>
                <Text size="sm" fw={600}>
                  {String(directive.name ?? "")}
                </Text>
                <ChangedHere changed={changed} name={String(directive.name ?? "")} />
                <Text size="xs" c="dimmed" hiddenFrom="sm">
                  priority {String(directive.priority ?? 0)}
                  {active ? "" : ", inactive"}
                </Text>
                {actions?.(directive)}
              </Stack>
            </Table.Th>
            <Table.Td>
              <JsonValue value={directive.content} />
            </Table.Td>
            <Table.Td visibleFrom="sm">
              <Text size="sm">{String(directive.priority ?? 0)}</Text>
            </Table.Td>
            <Table.Td visibleFrom="sm">
              <ActiveBadge active={active} />
            </Table.Td>
            <Table.Td visibleFrom="md">
              <Tags value={directive.tags} />
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ResourceTable>
  );
}
