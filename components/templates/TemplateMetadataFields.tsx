"use client";
import { Autocomplete, SimpleGrid, Stack, TagsInput, Textarea, TextInput } from "@mantine/core";

/** The editable metadata of a template, as the form holds it. */
export interface TemplateMetadata {
  name: string;
  description: string;
  category: string;
  tags: string[];
  integrations: string[];
}

export const emptyMetadata: TemplateMetadata = { name: "", description: "", category: "", tags: [], integrations: [] };

export const METADATA_FIELDS = ["name", "description", "category", "tags", "integrations"] as const;
export type MetadataField = (typeof METADATA_FIELDS)[number];

/** The metadata of a template for the form (nulls as empty strings). */
export function metadataOf(t: { name: string; description: string | null; category: string | null; tags: string[]; integrations: string[] }): TemplateMetadata {
  return { name: t.name, description: t.description ?? "", category: t.category ?? "", tags: [...t.tags], integrations: [...t.integrations] };
}

/** An error at a field, or at one of its list items (`tags[2]`). */
export function fieldOrItemError(fieldError: (path: string) => string | undefined, field: string, count: number) {
  const own = fieldError(field);
  const items = Array.from({ length: count }, (_, i) => fieldError(`${field}[${i}]`) && `item ${i + 1} ${fieldError(`${field}[${i}]`)}`).filter(Boolean);
  return [own, ...items].filter(Boolean).join("; ") || undefined;
}

interface Props {
  value: TemplateMetadata;
  onChange: (value: TemplateMetadata) => void;
  fieldError: (field: string) => string | undefined;
  /** Categories already in use, offered while typing. */
  categories?: string[];
}

/** Name, description, category, tags and integrations of a template. */
export function TemplateMetadataFields({ value, onChange, fieldError, categories = [] }: Props) {
  const set = <K extends keyof TemplateMetadata>(key: K, v: TemplateMetadata[K]) => onChange({ ...value, [key]: v });
  return (
    <Stack gap="sm">
      <TextInput label="Name" required value={value.name} onChange={(e) => set("name", e.currentTarget.value)} error={fieldError("name")} maxLength={200} />
      <Textarea
        label="Description"
        autosize
        minRows={2}
        maxRows={6}
        value={value.description}
        onChange={(e) => set("description", e.currentTarget.value)}
        error={fieldError("description")}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <Autocomplete
          label="Category"
          placeholder="e.g. support"
          data={categories}
          value={value.category}
          onChange={(v) => set("category", v)}
          error={fieldError("category")}
        />
        <TagsInput
          label="Tags"
          description="Enter or comma after each"
          value={value.tags}
          onChange={(v) => set("tags", v)}
          error={fieldOrItemError(fieldError, "tags", value.tags.length)}
          clearable
        />
        <TagsInput
          label="Integrations"
          description="Enter or comma after each"
          value={value.integrations}
          onChange={(v) => set("integrations", v)}
          error={fieldOrItemError(fieldError, "integrations", value.integrations.length)}
          clearable
        />
      </SimpleGrid>
    </Stack>
  );
}
