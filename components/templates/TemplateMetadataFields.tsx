"use client";
import { SimpleGrid, Stack, Textarea, TextInput } from "@mantine/core";
import { lazySection } from "@/components/console/lazy";
import type { DetailKey } from "@/lib/contracts/templates/content-fields";
import { type DetailsForm, detailLabel } from "./details-form";

/** An error at a field, or at one of its list items (`tags[2]`). */
type ListField = "category" | "tags" | "integrations";

export interface TemplateListFieldsProps extends Pick<DetailsForm, ListField> {
  onChange: <K extends ListField>(key: K, value: DetailsForm[K]) => void;
  categories: string[];
  errors: Partial<Record<ListField, string>>;
}

/**
 * Until TemplateListFields' code has arrived: the same three fields, labelled and laid out as
 * they will be, showing their values, not yet editable.
 */
function ListFieldsLoading({ category, tags, integrations }: Pick<DetailsForm, ListField>) {
  const hint = "Enter or comma after each";
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" aria-busy>
      <TextInput label={detailLabel("category")} placeholder="e.g. support" value={category} disabled readOnly />
      <TextInput label={detailLabel("tags")} description={hint} value={tags.join(", ")} disabled readOnly />
      <TextInput label={detailLabel("integrations")} description={hint} value={integrations.join(", ")} disabled readOnly />
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

/** The details this form has an input for: every one (a detail without its input does not compile). */
const INPUTS = ["name", "description", "category", "tags", "integrations", "homepage_url"] as const satisfies readonly DetailKey[];
type WithoutInput = Exclude<DetailKey, (typeof INPUTS)[number]>;
const everyDetailHasInput: [WithoutInput] extends [never] ? true : WithoutInput = true;
void everyDetailHasInput;

interface Props {
  value: DetailsForm;
  onChange: (value: DetailsForm) => void;
  fieldError: (field: string) => string | undefined;
  /** Categories already in use, offered while typing. */
  categories?: string[];
  /** Say at the field that an empty name cannot be saved (an edited template; a new form starts empty). */
  requireName?: boolean;
}

/** The message at the Name field when it is empty and a name is required. */
const NAME_REQUIRED = "A template needs a name: saving is off until it has one";

/** A template's details: name, description, category, tags, integrations and home page. */
export function TemplateMetadataFields({ value, onChange, fieldError, categories = [], requireName = false }: Props) {
  const set = <K extends DetailKey>(key: K, v: DetailsForm[K]) => onChange({ ...value, [key]: v });
  return (
    <Stack gap="sm">
      <TextInput
        label={detailLabel("name")}
        required
        value={value.name}
        onChange={(e) => set("name", e.currentTarget.value)}
        error={fieldError("name") ?? (requireName && value.name.trim() === "" ? NAME_REQUIRED : undefined)}
        maxLength={200}
      />
      <Textarea
        label={detailLabel("description")}
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
      <TextInput
        label={detailLabel("homepage_url")}
        description="Optional. An http or https address where the template is described."
        placeholder="https://example.com/templates/support-bot"
        type="url"
        value={value.homepage_url}
        onChange={(e) => set("homepage_url", e.currentTarget.value)}
        error={fieldError("homepage_url")}
        maxLength={2048}
      />
    </Stack>
  );
}
