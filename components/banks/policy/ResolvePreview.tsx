"use client";
import { Alert, Badge, Card, Code, DataList, Group, Loader, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useState } from "react";
import { ErrorState } from "@/components/console/states";
import { useResolvedPolicy } from "@/lib/client/hooks/policy";

interface ResolvePreviewProps {
  bankId: string;
  /** Whether the bank has a saved policy to resolve (the API answers 404 otherwise). */
  hasPolicy: boolean;
  /** Whether the editor holds changes the preview does not reflect yet. */
  unsaved: boolean;
}

/**
 * What the saved policy gives in one context: type a provider, channel and topic and the
 * resolved strategy and public access follow (asked a moment after typing stops).
 */
export function ResolvePreview({ bankId, hasPolicy, unsaved }: ResolvePreviewProps) {
  const [context, setContext] = useState({ provider: "", channel: "", topic: "" });
  const [debounced] = useDebouncedValue(context, 300);
  const resolved = useResolvedPolicy(bankId, debounced, hasPolicy);
  const field = (key: keyof typeof context, label: string, placeholder: string) => (
    <TextInput
      label={label}
      placeholder={placeholder}
      value={context[key]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setContext((c) => ({ ...c, [key]: value }));
      }}
      spellCheck={false}
      autoCapitalize="none"
    />
  );

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="resolve-preview-title" data-testid="resolve-preview">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" id="resolve-preview-title">
            Resolve preview
          </Title>
          {resolved.isFetching && hasPolicy && <Loader size="xs" aria-label="Resolving" />}
        </Group>
        <Text size="sm" c="dimmed">
          What the saved policy grants for a request from this provider, channel and topic. Leave a field empty when the
          request has none.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          {field("provider", "Provider", "slack")}
          {field("channel", "Channel", "support")}
          {field("topic", "Topic", "billing")}
        </SimpleGrid>
        {!hasPolicy ? (
          <Alert color="gray" variant="light">
            Save a policy to preview how it resolves.
          </Alert>
        ) : resolved.isError ? (
          <ErrorState title="Could not resolve the policy" error={resolved.error} onRetry={() => resolved.refetch()} />
        ) : resolved.data ? (
          <div aria-live="polite" data-testid="resolve-result">
            <DataList size="sm" labelWidth={130}>
              <DataList.Item>
                <DataList.ItemLabel>Strategy</DataList.ItemLabel>
                <DataList.ItemValue data-testid="resolved-strategy">
                  {resolved.data.strategy ? <Code>{resolved.data.strategy}</Code> : <Text size="sm" c="dimmed">none</Text>}
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>Public access</DataList.ItemLabel>
                <DataList.ItemValue data-testid="resolved-access">
                  {resolved.data.public_access ? (
                    <Stack gap={4}>
                      <Group gap={4}>
                        {resolved.data.public_access.actions.map((action) => (
                          <Badge key={action} variant="light" tt="none">
                            {action}
                          </Badge>
                        ))}
                      </Group>
                      <Text size="sm">
                        recall budget {resolved.data.public_access.recall_budget ?? "not set"}, max tokens{" "}
                        {resolved.data.public_access.recall_max_tokens ?? "not set"}
                      </Text>
                    </Stack>
                  ) : (
                    <Text size="sm" c="dimmed">
                      none: public callers get nothing here
                    </Text>
                  )}
                </DataList.ItemValue>
              </DataList.Item>
            </DataList>
          </div>
        ) : (
          <Text size="sm" c="dimmed" role="status">
            Resolving…
          </Text>
        )}
        {hasPolicy && unsaved && (
          <Text size="xs" c="var(--mantine-color-orange-text)" role="status">
            The editor has unsaved changes; this preview shows the saved policy.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
