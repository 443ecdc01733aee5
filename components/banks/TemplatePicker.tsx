"use client";
import { Anchor, Autocomplete, Loader, Stack, Text } from "@mantine/core";
import Link from "next/link";
import { useState } from "react";
import { useUsableTemplates } from "@/lib/client/hooks/templates";
import { describeError } from "@/lib/client/problem";

interface TemplatePickerProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoFocus?: boolean;
  /** The picker is in a dialog (a bank's "Apply a template"). */
  inDialog?: boolean;
}

/**
 * The template to apply, as a ref: suggestions are every template the user may use, their
 * personal ones and the server's (GET /ext/svc/templates); a ref may also be typed.
 */
export function TemplatePicker({ value, onChange, error, autoFocus, inDialog = false }: TemplatePickerProps) {
  const usable = useUsableTemplates();
  const [opened, setOpened] = useState(false);
  const loading = usable.isPending;
  const byScope = (scope: "personal" | "server") => usable.data?.templates.filter((t) => t.scope === scope);
  const names = new Map<string, string>();
  const group = (label: string, scope: "personal" | "server", list: { id: string; name: string }[] | undefined) => {
    const items = (list ?? []).map((t) => {
      names.set(`${scope}/${t.id}`, t.name);
      return `${scope}/${t.id}`;
    });
    return items.length ? [{ group: label, items }] : [];
  };
  const data = [...group("Your templates", "personal", byScope("personal")), ...group("Server templates", "server", byScope("server"))];
  const failed = usable.isError ? usable : null;
  const none = !loading && !failed && data.length === 0;

  return (
    <Stack gap={4}>
      <Autocomplete
        label="Template"
        description="Pick one of your templates or a server template, or type its ref: personal/{id} or server/{id}."
        placeholder="personal/support-bot or server/support-bot"
        required
        data={data}
        value={value}
        onChange={onChange}
        error={error}
        autoFocus={autoFocus}
        spellCheck={false}
        autoCapitalize="none"
        rightSection={loading ? <Loader size="xs" aria-label="Loading templates" /> : undefined}
        renderOption={({ option }) => (
          <Stack gap={0}>
            <Text size="sm">{names.get(option.value) ?? option.value}</Text>
            <Text size="xs" c="dimmed" ff="monospace">
              {option.value}
            </Text>
          </Stack>
        )}
        // The list opens on a click or on typing, not on focus, and Enter that submits the form
        // (Preview) closes it, as choosing a template does: left open, it covered Preview and its result.
        openOnFocus={false}
        dropdownOpened={opened}
        onDropdownOpen={() => setOpened(true)}
        onDropdownClose={() => setOpened(false)}
        onKeyDown={(event) => {
          if (event.key === "Enter") setOpened(false);
        }}
        // In a dialog the suggestions stay inside it,
        // where screen readers look, not at the end of the body outside every landmark. On a page
        // they float at the body's end instead: the card around the form would clip them.
        comboboxProps={{ withinPortal: !inDialog }}
        maxDropdownHeight={280}
      />
      {failed && (
        <Text size="xs" c="red" role="alert">
          Could not load the template list ({describeError(failed.error)}); you can still type a ref.
        </Text>
      )}
      {none && (
        <Text size="xs" c="dimmed">
          You have no templates yet: install one from the{" "}
          <Anchor component={Link} href="/marketplace" size="xs">
            marketplace
          </Anchor>{" "}
          or create one under{" "}
          <Anchor component={Link} href="/templates" size="xs">
            Templates
          </Anchor>
          .
        </Text>
      )}
    </Stack>
  );
}
