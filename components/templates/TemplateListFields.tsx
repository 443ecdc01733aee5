"use client";
import { Autocomplete, SimpleGrid, TagsInput } from "@mantine/core";
import { detailLabel } from "./details-form";
import type { TemplateListFieldsProps } from "./TemplateMetadataFields";

/**
 * Category (typed, or picked from those in use), tags and integrations of a template: Mantine's
 * Autocomplete and TagsInput, reached only through `import()` from TemplateMetadataFields.
 */
export function TemplateListFields({ category, tags, integrations, onChange, categories, errors }: TemplateListFieldsProps) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
      <Autocomplete
        label={detailLabel("category")}
        placeholder="e.g. support"
        data={categories}
        value={category}
        onChange={(v) => onChange("category", v)}
        error={errors.category}
      />
      <TagsInput
        label={detailLabel("tags")}
        description="Enter or comma after each"
        value={tags}
        onChange={(v) => onChange("tags", v)}
        error={errors.tags}
        clearable
      />
      <TagsInput
        label={detailLabel("integrations")}
        description="Enter or comma after each"
        value={integrations}
        onChange={(v) => onChange("integrations", v)}
        error={errors.integrations}
        clearable
      />
    </SimpleGrid>
  );
}
