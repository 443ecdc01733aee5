"use client";
import { SimpleGrid, Stack, Textarea, TextInput } from "@mantine/core";
import { lazySection } from "@/components/console/lazy";

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

/** The metadata of a template for the form (nulls as empty strings). */
export function metadataOf(t: {
  name: string;
  description: string | null;
  category: string | null;
  tags: string[];
  integrations: string[];
}): TemplateMetadata {
  return {
    name: t.name,
    description: t.description ?? "",
    category: t.category ?? "",
    tags: [...t.tags],
    integrations: [...t.integrations],
  };
}

/** An error at a field, or at one of its list items (`tags[2]`). */
type ListField = "category" | "tags" | "integrations";

export interface TemplateListFieldsProps extends Pick<TemplateMetadata, ListField> {
  onChange: <K extends ListField>(key: K, value: TemplateMetadata[K]) => void;
  categories: string[];
  errors: Partial<Record<ListField, string>>;
}

/**
 * Until TemplateListFields' code has arrived: the same three fields, labelled and laid out as
 * they will be, showing their values, not yet editable.
 */
function ListFieldsLoading({ category, tags, integrations }: Pick<TemplateMetadata, ListField>) {
  const hint = "Enter or comma after each";
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" aria-busy>
      <TextInput label="Category" placeholder="e.g. support" value={category} disabled readOnly />
      <TextInput label="Tags" description={hint} value={tags.join(", ")} disabled readOnly />
      <TextInput label="Integrations" description={hint} value={integrations.join(", ")} disabled readOnly />
    </SimpleGrid>
  );
}

// Category, tags and integrations are Mantine's Autocomplete and TagsInput: Combobox, Popover
// and floating-ui, ~35 kB gzipped that would double the new-template page's first load. The
// page (and the server's render of it) shows them as always; their code loads alongside the
// page's and makes them interactive when it arrives.
const TemplateListFields = lazySection<TemplateListFieldsProps>(
  () => import("./TemplateListFields").then((m) => m.TemplateListFields),
  (props) => <ListFieldsLoading {...props} />,
);

interface Props {
  value: TemplateMetadata;
  onChange: (value: TemplateMetadata) => void;
  fieldError: (field: string) => string | undefined;
  /** Categories already in use, offered while typing. */
  categories?: string[];
  /** Say at the field that an empty name cannot be saved (an edited template; a new form starts empty). */
  requireName?: boolean;
}

/** The message at the Name field when it is empty and a name is required. */
const NAME_REQUIRED = "A template needs a name: saving is off until it has one";

/** Name, description, category, tags and integrations of a template. */
export function TemplateMetadataFields({ value, onChange, fieldError, categories = [], requireName = false }: Props) {
  const set = <K extends keyof TemplateMetadata>(key: K, v: TemplateMetadata[K]) => onChange({ ...value, [key]: v });
  return (
    <Stack gap="sm">
      <TextInput
        label="Name"
        required
        value={value.name}
        onChange={(e) => set("name", e.currentTarget.value)}
        error={fieldError("name") ?? (requireName && value.name.trim() === "" ? NAME_REQUIRED : undefined)}
        maxLength={200}
      />
      <Textarea
        label="Description"
        autosize
        minRows={2}
        maxRows={6}
        value={value.description}
        onChange={(e) => set("description", e.currentTarget.value)}
        error={fieldError("description")}
      />
      <TemplateListFields
        category={value.category}
        tags={value.tags}
        integrations={value.integrations}
        onChange={set}
        categories={categories}
        errors={{
          category: fieldError("category"),
          tags: fieldError("tags"),
          integrations: fieldError("integrations"),
        }}
      />
    </Stack>
  );
}
