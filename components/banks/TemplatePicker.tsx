"use client";
import { Anchor, Autocomplete, Loader, Stack, Text } from "@mantine/core";
import Link from "next/link";
import { useConsoleUser } from "@/components/console/console-user";
import { useTemplateChoices } from "@/lib/client/hooks/banks";
import { describeError } from "@/lib/client/problem";

interface TemplatePickerProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoFocus?: boolean;
}

/**
 * The template to apply, as a ref: suggestions are the user's personal templates and, for
 * admins, the server's; anyone may type a `server/{id}` ref instead.
 */
export function TemplatePicker({ value, onChange, error, autoFocus }: TemplatePickerProps) {
  const user = useConsoleUser();
  const isAdmin = user.role === "admin";
  const { personal, server } = useTemplateChoices(isAdmin);
  const loading = personal.isPending || (server?.isPending ?? false);
  const names = new Map<string, string>();
  const group = (label: string, scope: "personal" | "server", list: { id: string; name: string }[] | undefined) => {
    const items = (list ?? []).map((t) => {
      names.set(`${scope}/${t.id}`, t.name);
      return `${scope}/${t.id}`;
    });
    return items.length ? [{ group: label, items }] : [];
  };
  const data = [
    ...group("Your templates", "personal", personal.data?.templates),
    ...group("Server templates", "server", server?.data?.templates),
  ];
  const failed = [personal, server].find((q) => q?.isError);
  const none = !loading && !failed && data.length === 0;

  return (
    <Stack gap={4}>
      <Autocomplete
        label="Template"
        description={
          isAdmin
            ? "Pick a personal or server template, or type its ref: personal/{id} or server/{id}."
            : "Pick one of your templates, or type a server template's ref: server/{id}."
        }
        placeholder={isAdmin ? "personal/support-bot or server/support-bot" : "personal/support-bot"}
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
        comboboxProps={{ withinPortal: true }}
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
