"use client";
import { Alert, Badge, Card, Code, DataList, Group, Loader, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useRef, useState } from "react";
import { ErrorState } from "@/components/console/states";
import { useResolvedPolicy } from "@/lib/client/hooks/policy";
import { describeRule, type ExplainedResolution, explainPolicy, type PolicyRule } from "@/lib/contracts/policy/resolve";
import type { PolicyContext, PolicyDocument, ResolvedPolicy } from "@/lib/contracts/policy/schemas";
import type { PolicyDraft } from "./policy-document";

interface ResolvePreviewProps {
  bankId: string;
  /** Whether the bank has a saved policy to resolve (the API answers 404 otherwise). */
  hasPolicy: boolean;
  /** Whether the editor holds changes the preview does not reflect yet. */
  unsaved: boolean;
  /** The saved document, to tell which of its rules won (the API answers only the values). */
  saved: PolicyDraft | null;
}

/** The context as the API reads it: an empty field is no value at all. */
const contextOf = (fields: Record<keyof PolicyContext, string>): PolicyContext =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== ""));

const sameResolution = (a: ResolvedPolicy, b: ResolvedPolicy) =>
  a.strategy === b.strategy &&
  (a.public_access === null || b.public_access === null
    ? a.public_access === b.public_access
    : a.public_access.recall_budget === b.public_access.recall_budget &&
      a.public_access.recall_max_tokens === b.public_access.recall_max_tokens &&
      a.public_access.actions.join("\n") === b.public_access.actions.join("\n"));

/**
 * Which rules gave the API's answer, found by resolving the saved document here with the
 * server's own code (lib/contracts/policy/resolve.ts). Only when that gives the same answer: should
 * the stored policy have changed meanwhile, no rule is named rather than a wrong one.
 */
function explain(saved: PolicyDraft | null, context: PolicyContext, answer: ResolvedPolicy): ExplainedResolution | undefined {
  if (!saved) return undefined;
  // The saved document is the one the API accepted, so it has the PolicyDocument shape.
  const explained = explainPolicy(saved as PolicyDocument, context);
  return sameResolution(explained.resolved, answer) ? explained : undefined;
}

/** "from strategy_overrides[1] (channel = slack)", or why nothing applies. */
function RuleNote({ rule, none, testId }: { rule: PolicyRule | undefined; none: string; testId: string }) {
  if (!rule) return null;
  const name = describeRule(rule);
  return (
    <Text size="xs" c="dimmed" data-testid={testId}>
      {name ? (
        <>
          won by <Code>{name}</Code>
        </>
      ) : (
        none
      )}
    </Text>
  );
}

/**
 * What the saved policy gives in one context: type a provider, channel and topic and the
 * resolved strategy and public access follow (asked a moment after typing stops).
 */
export function ResolvePreview({ bankId, hasPolicy, unsaved, saved }: ResolvePreviewProps) {
  const [context, setContext] = useState({ provider: "", channel: "", topic: "" });
  const [debounced] = useDebouncedValue(context, 300);
  const resolved = useResolvedPolicy(bankId, debounced, hasPolicy);
  // While the next context is asked for, the last answer stays up (placeholder data), and so
  // do the rules that gave it.
  const current = resolved.data && !resolved.isPlaceholderData ? explain(saved, contextOf(debounced), resolved.data) : undefined;
  const lastRules = useRef<ExplainedResolution | undefined>(undefined);
  if (resolved.data && !resolved.isPlaceholderData) lastRules.current = current;
  const rules = resolved.isPlaceholderData ? lastRules.current : current;
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
          What the saved policy grants for a request from this provider, channel and topic. Leave a field empty when the request has none.
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
                <DataList.ItemValue>
                  <div data-testid="resolved-strategy">
                    {resolved.data.strategy ? (
                      <Code>{resolved.data.strategy}</Code>
                    ) : (
                      <Text size="sm" c="dimmed">
                        none
                      </Text>
                    )}
                  </div>
                  <RuleNote
                    rule={rules?.strategyRule}
                    none="no strategy override matches and there is no default_strategy"
                    testId="strategy-rule"
                  />
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>Public access</DataList.ItemLabel>
                <DataList.ItemValue>
                  <div data-testid="resolved-access">
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
                  </div>
                  <RuleNote
                    rule={rules?.accessRule}
                    none="no public access override matches and there is no public_access.default"
                    testId="access-rule"
                  />
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
