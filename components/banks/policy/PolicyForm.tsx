"use client";
import {
  ActionIcon,
  Autocomplete,
  Button,
  Fieldset,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Tooltip,
} from "@mantine/core";
import { IconPlus, IconTrash } from "@tabler/icons-react";
import { type ReactNode, useId } from "react";
import { POLICY_VERSION } from "@/lib/client/policy-version";
import { getIn, isObject, listAt, type Path, type PolicyDraft, RECALL_BUDGETS, SCOPES, textAt } from "./policy-document";

const KNOWN_KEYS = ["version", "default_strategy", "strategy_overrides", "public_access"];
const SCOPE_OPTIONS = SCOPES.map((s) => ({ value: s, label: s }));
const BUDGET_OPTIONS = RECALL_BUDGETS.map((b) => ({ value: b, label: b }));

interface PolicyFormProps {
  draft: PolicyDraft;
  /** The strategy names to offer (knownStrategies); any other may be typed. */
  strategies: string[];
  /** Sets one value of the document; `undefined` removes it. */
  onSet: (path: Path, value: unknown) => void;
  /** The API's message for a field of the document, if it refused one. */
  errorAt: (path: Path, withItems?: boolean) => string | undefined;
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color="red" aria-label={label} onClick={onClick}>
        <IconTrash size={16} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}

interface OverrideListProps extends PolicyFormProps {
  /** Where the list sits in the document: `["strategy_overrides"]`. */
  path: Path;
  /** "Strategy override": names the list, its items ("Strategy override 2") and its add button. */
  noun: string;
  hint?: string;
  testIdPrefix: string;
  /** A new item, added by the add button. */
  blank: Record<string, unknown>;
  /** The fields of the item at `itemPath`. */
  renderItem: (itemPath: Path) => ReactNode;
}

/**
 * A list of overrides: each a bordered group named for screen readers ("Strategy override
 * 1") with a remove button, then a button adding one; the API's message about the whole list
 * above it.
 */
function OverrideList({ path, noun, hint, testIdPrefix, blank, renderItem, draft, onSet, errorAt }: OverrideListProps) {
  const labelId = useId();
  const items = listAt(draft, path);
  const listError = errorAt(path);
  return (
    <Stack gap="xs">
      <div>
        <Text size="sm" fw={500} id={labelId}>
          {noun}s
        </Text>
        {hint && (
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        )}
        {listError && (
          <Text size="xs" c="red">
            {listError}
          </Text>
        )}
      </div>
      <Stack gap="xs" aria-labelledby={labelId} role="list">
        {items.map((_, i) => {
          const name = `${noun} ${i + 1}`;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the policy document's lists hold no ids; an item is its position ("Strategy override 2"), its inputs controlled by it.
            <Paper key={i} withBorder p="sm" role="listitem" aria-label={name} data-testid={`${testIdPrefix}-${i}`}>
              <Group justify="space-between" mb={4} wrap="nowrap">
                <Text size="sm" fw={600}>
                  {name}
                </Text>
                <RemoveButton label={`Remove ${name.toLowerCase()}`} onClick={() => onSet([...path, i], undefined)} />
              </Group>
              {renderItem([...path, i])}
            </Paper>
          );
        })}
      </Stack>
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => onSet([...path, items.length], blank)}
        >
          Add {noun.toLowerCase()}
        </Button>
      </Group>
    </Stack>
  );
}

/** Scope and value: which context an override applies to. */
function ScopeFields({ path, draft, onSet, errorAt }: PolicyFormProps & { path: Path }) {
  return (
    <>
      <Select
        label="Scope"
        data={SCOPE_OPTIONS}
        value={textAt(draft, [...path, "scope"]) || null}
        onChange={(v) => onSet([...path, "scope"], v ?? undefined)}
        allowDeselect={false}
        error={errorAt([...path, "scope"])}
      />
      <TextInput
        label="Value"
        value={textAt(draft, [...path, "value"])}
        onChange={(e) => onSet([...path, "value"], e.currentTarget.value)}
        error={errorAt([...path, "value"])}
      />
    </>
  );
}

/** What a grant gives: actions, recall budget and most tokens per recall. */
function GrantFields({ path, draft, onSet, errorAt }: PolicyFormProps & { path: Path }) {
  const tokens = getIn(draft, [...path, "recall_max_tokens"]);
  return (
    <>
      <TagsInput
        label="Actions"
        description="Type an action such as bank:recall, then Enter"
        placeholder={listAt(draft, [...path, "actions"]).length ? undefined : "bank:recall"}
        value={listAt(draft, [...path, "actions"]).map((a) => (typeof a === "string" ? a : JSON.stringify(a)))}
        onChange={(values) => onSet([...path, "actions"], values)}
        error={errorAt([...path, "actions"], true)}
        clearable
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Select
          label="Recall budget"
          placeholder="not set"
          data={BUDGET_OPTIONS}
          value={textAt(draft, [...path, "recall_budget"]) || null}
          onChange={(v) => onSet([...path, "recall_budget"], v ?? undefined)}
          clearable
          error={errorAt([...path, "recall_budget"])}
        />
        <NumberInput
          label="Recall max tokens"
          placeholder="not set"
          allowDecimal={false}
          value={typeof tokens === "number" ? tokens : textAt(draft, [...path, "recall_max_tokens"])}
          onChange={(v) => {
            if (v === "") onSet([...path, "recall_max_tokens"], undefined);
            else if (typeof v === "number") onSet([...path, "recall_max_tokens"], v);
          }}
          error={errorAt([...path, "recall_max_tokens"])}
        />
      </SimpleGrid>
    </>
  );
}

/**
 * The policy document as a form: strategy (default and overrides by provider, channel or
 * topic) and public access (a default grant and overrides). It edits the same document the
 * JSON view shows.
 */
export function PolicyForm(props: PolicyFormProps) {
  const { draft, onSet, errorAt, strategies } = props;
  const grantsByDefault = isObject(getIn(draft, ["public_access", "default"]));
  const unknownKeys = Object.keys(draft).filter((k) => !KNOWN_KEYS.includes(k));

  return (
    <Stack gap="lg">
      <Fieldset legend="Strategy">
        <Stack gap="sm">
          <TextInput
            label="Version"
            description="Fixed: the policy format this server understands."
            value={textAt(draft, ["version"])}
            readOnly
            variant="filled"
            error={errorAt(["version"])}
            styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          />
          <Text size="xs" c="dimmed" data-testid="strategy-names-hint">
            {strategies.length > 0
              ? "The strategy fields offer the retain strategies this bank's config defines and the names its policy uses; any other name may be typed."
              : "This bank's config defines no retain strategies (retain_strategies) and its policy names none yet: type the strategy's name."}
          </Text>
          <Autocomplete
            label="Default strategy"
            description="Used where no strategy override matches; empty for none."
            placeholder="balanced"
            data={strategies}
            value={textAt(draft, ["default_strategy"])}
            onChange={(value) => onSet(["default_strategy"], value || undefined)}
            error={errorAt(["default_strategy"])}
          />
          <OverrideList
            {...props}
            path={["strategy_overrides"]}
            noun="Strategy override"
            hint="Each matches one provider, channel or topic exactly; the most specific match wins: topic over channel over provider."
            testIdPrefix="strategy-override"
            blank={{ scope: "provider", value: "", strategy: "" }}
            renderItem={(path) => (
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                <ScopeFields {...props} path={path} />
                <Autocomplete
                  label="Strategy"
                  data={strategies}
                  value={textAt(draft, [...path, "strategy"])}
                  onChange={(value) => onSet([...path, "strategy"], value)}
                  error={errorAt([...path, "strategy"])}
                />
              </SimpleGrid>
            )}
          />
        </Stack>
      </Fieldset>

      <Fieldset legend="Public access">
        <Stack gap="sm">
          <Text size="xs" c="dimmed">
            What callers without a key may do with this bank. An override replaces the default whole in its context.
          </Text>
          <Switch
            label="Grant public access by default"
            checked={grantsByDefault}
            onChange={(e) => onSet(["public_access", "default"], e.currentTarget.checked ? { actions: ["bank:recall"] } : undefined)}
            error={errorAt(["public_access", "default"]) ?? errorAt(["public_access"])}
          />
          {grantsByDefault && (
            <Paper withBorder p="sm" role="group" aria-label="Default grant" data-testid="public-access-default">
              <Stack gap="sm">
                <GrantFields {...props} path={["public_access", "default"]} />
              </Stack>
            </Paper>
          )}
          <OverrideList
            {...props}
            path={["public_access", "overrides"]}
            noun="Public access override"
            testIdPrefix="access-override"
            blank={{ scope: "channel", value: "", actions: ["bank:recall"] }}
            renderItem={(path) => (
              <Stack gap="sm">
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <ScopeFields {...props} path={path} />
                </SimpleGrid>
                <GrantFields {...props} path={path} />
              </Stack>
            )}
          />
        </Stack>
      </Fieldset>

      {unknownKeys.length > 0 && (
        <Text size="sm" c="dimmed">
          The JSON also has {unknownKeys.map((k) => `"${k}"`).join(", ")}, which the form does not show (version {POLICY_VERSION} does not
          know {unknownKeys.length === 1 ? "it" : "them"}; saving will be refused).
        </Text>
      )}
    </Stack>
  );
}
