"use client";
import { Select, SimpleGrid, Stack, Text, Textarea } from "@mantine/core";
import { useMemo, useState } from "react";
import type { z } from "zod";
import { FormModal } from "@/components/forms/FormModal";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { formatJson } from "@/components/templates/json-text";
import { ManifestEditor } from "@/components/templates/ManifestEditor";
import { entityTagOf } from "@/lib/client/entity-tag";
import { usePatchBank } from "@/lib/client/hooks/banks";
import type { BankDetail } from "@/lib/contracts/banks/schemas";
import { sameJson } from "@/lib/shared/same-json";
import { EditPreview } from "./EditPreview";
import { type BankPart, useBankPartValidation } from "./entry-check";

type Config = Record<string, unknown>;

// The fields people tune most, as form fields; every other config field is edited as JSON.
// An empty field is no value of the bank's own: the server's default applies.
const TEXT_FIELDS = [
  { key: "retain_mission", label: "Retain mission", description: "Steers what retain extracts." },
  { key: "reflect_mission", label: "Reflect mission", description: "Mission given to reflect operations." },
  { key: "observations_mission", label: "Observations mission", description: "Steers what observations synthesise." },
] as const;
const CHOICE_FIELDS = [
  {
    key: "retain_extraction_mode",
    label: "Retain extraction mode",
    options: ["concise", "verbose", "custom", "verbatim", "chunks"].map((v) => ({ value: JSON.stringify(v), label: v })),
  },
  ...(["skepticism", "literalism", "empathy"] as const).map((trait) => ({
    key: `disposition_${trait}`,
    label: `Disposition: ${trait}`,
    options: [1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: String(n) })),
  })),
  {
    key: "enable_observations",
    label: "Observations",
    options: [
      { value: "true", label: "on" },
      { value: "false", label: "off" },
    ],
  },
] as const;
const FORM_KEYS = new Set<string>([...TEXT_FIELDS, ...CHOICE_FIELDS].map((f) => f.key));

const PART: BankPart = { kind: "config" };

/** The form's fields as the bank has them: a text as it is, a choice as its JSON, "" for none. */
function formFieldsOf(config: Config): Record<string, string> {
  const text = new Set<string>(TEXT_FIELDS.map((f) => f.key));
  return Object.fromEntries(
    [...FORM_KEYS].map((key) => {
      const value = config[key];
      return [key, value == null ? "" : text.has(key) && typeof value === "string" ? value : JSON.stringify(value)];
    }),
  );
}

/** The bank's config overrides with their keys sorted, as the diff compares them. */
const sorted = (config: Config) =>
  Object.fromEntries(
    Object.keys(config)
      .sort()
      .map((key) => [key, config[key]]),
  );

/**
 * The PATCH that turns `now` into `next`: each field whose value changes, and null for each
 * field the bank had and `next` leaves out (back to the server's default).
 */
function configPatch(now: Config, next: Config): Config {
  const patch: Config = {};
  for (const key of new Set([...Object.keys(now), ...Object.keys(next)])) {
    if (!Object.hasOwn(next, key)) patch[key] = null;
    else if (!Object.hasOwn(now, key) || !sameJson(now[key], next[key])) patch[key] = next[key];
  }
  return patch;
}

/**
 * Edits a bank's config overrides: the most tuned fields as a form, the others as JSON (checked
 * live with the bank template schema's rules), then the change as a diff, then saved as one
 * PATCH (a field emptied goes back to the server's default).
 */
export function BankConfigModal({ bank, onClose }: { bank: z.output<typeof BankDetail>; onClose: () => void }) {
  const config = bank.config as Config;
  const openedFields = useMemo(() => formFieldsOf(config), [config]);
  const [fields, setFields] = useState(openedFields);
  const openedOthers = useMemo(
    () => formatJson(sorted(Object.fromEntries(Object.entries(config).filter(([key]) => !FORM_KEYS.has(key))))),
    [config],
  );
  const [others, setOthers] = useState(openedOthers);
  const [preview, setPreview] = useState<Config | null>(null);
  const { parsed, check, previous } = useBankPartValidation(PART, others);
  const form = useFormSubmit(["config"] as const);
  const patch = usePatchBank();
  const set = (key: string, value: string) => setFields((current) => ({ ...current, [key]: value }));

  /** The config the dialog holds: the JSON's fields, then the form's non-empty ones. */
  const edited = (rest: Config): Config => {
    const next: Config = { ...rest };
    for (const { key } of TEXT_FIELDS) if (fields[key]!.trim() !== "") next[key] = fields[key];
    for (const { key } of CHOICE_FIELDS) if (fields[key] !== "") next[key] = JSON.parse(fields[key]!);
    return next;
  };

  const next = async () => {
    if (preview) {
      const body = { config: configPatch(config, preview) };
      const saved = await form.submit(() => patch.mutateAsync({ params: { bank_id: bank.bank_id }, body, ifMatch: entityTagOf(bank) }));
      if (saved) onClose();
      return;
    }
    if (!parsed.ok || check.state !== "checked" || !check.valid) return;
    setPreview(edited(parsed.value as Config));
  };
  const unchanged = preview !== null && Object.keys(configPatch(config, preview)).length === 0;

  return (
    <FormModal
      opened
      onClose={onClose}
      title={`Edit the config of ${bank.bank_id}`}
      size="xl"
      submitLabel={preview ? "Save" : "Preview change"}
      form={form}
      onSubmit={unchanged ? () => setPreview(null) : next}
      dirty={others !== openedOthers || preview !== null || !sameJson(fields, openedFields)}
    >
      {preview ? (
        <EditPreview
          intro={
            <Text size="sm">
              {unchanged
                ? "Nothing changes: the config is as the bank has it."
                : "The bank's config overrides, now and after saving (a field left out returns to the server's default):"}
            </Text>
          }
          before={formatJson(sorted(config))}
          after={formatJson(sorted(preview))}
          onBack={() => setPreview(null)}
        />
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            An empty field has no value of this bank&apos;s own: the server&apos;s default applies.
          </Text>
          {TEXT_FIELDS.map(({ key, label, description }) => (
            <Textarea
              key={key}
              label={label}
              description={description}
              autosize
              minRows={1}
              maxRows={6}
              value={fields[key]}
              onChange={(event) => set(key, event.currentTarget.value)}
            />
          ))}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {CHOICE_FIELDS.map(({ key, label, options }) => (
              <Select
                key={key}
                label={label}
                data={options}
                placeholder="default"
                clearable
                value={fields[key] || null}
                onChange={(value) => set(key, value ?? "")}
              />
            ))}
          </SimpleGrid>
          <ManifestEditor
            value={others}
            onChange={setOthers}
            check={check}
            previous={previous}
            label="Other config fields (JSON)"
            noun="config"
            placeholder={'{\n  "retain_chunk_size": 3000\n}'}
          />
        </Stack>
      )}
    </FormModal>
  );
}
