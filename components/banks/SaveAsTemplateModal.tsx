"use client";
import { Group, Radio, TextInput } from "@mantine/core";
import { useConsoleUser } from "@/components/console/console-user";
import { FormModal } from "@/components/forms/FormModal";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useFormValues } from "@/components/forms/useFormValues";
import { useFetchBankExport } from "@/lib/client/hooks/banks";
import { useCreateTemplate } from "@/lib/client/hooks/templates";
import type { ScopeKind } from "@/lib/contracts/scope";

const FIELDS = ["id", "name"] as const;

interface SaveAsTemplateModalProps {
  opened: boolean;
  onClose: () => void;
  bankId: string;
  bankName: string;
  /** Called with the template created. */
  onSaved: (template: { scope: ScopeKind; id: string }) => void;
}

/**
 * Saves the bank's export as a new template: the caller's own, or for admins optionally a
 * server template. A taken id (409) or an invalid one (422) shows at the id field.
 */
export function SaveAsTemplateModal({ opened, onClose, bankId, bankName, onSaved }: SaveAsTemplateModalProps) {
  const user = useConsoleUser();
  const fetchExport = useFetchBankExport();
  const form = useFormSubmit(FIELDS, { statusFields: { 409: "id" } });
  const fields = useFormValues({ id: "", name: "", scope: "personal" as ScopeKind });
  const createPersonal = useCreateTemplate("personal");
  const createServer = useCreateTemplate("server");

  const close = () => {
    fields.reset();
    onClose();
  };

  const submit = async () => {
    const { id, name, scope } = fields.values;
    const create = scope === "server" ? createServer : createPersonal;
    const created = await form.submit(async () => {
      const manifest = await fetchExport(bankId);
      return create.mutateAsync({ body: { id: id.trim(), name: name.trim() || bankName, manifest } });
    });
    if (created) {
      close();
      onSaved({ scope, id: created.id });
    }
  };

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title={`Save ${bankId} as a template`}
      submitLabel="Save as template"
      form={form}
      onSubmit={submit}
      dirty={fields.dirty}
    >
      <TextInput
        label="Template id"
        description="1-128 characters of letters, digits, '.', '_' or '-', starting with a letter or digit."
        required
        autoComplete="off"
        spellCheck={false}
        {...fields.text("id")}
        error={form.fieldError("id")}
        data-autofocus
      />
      <TextInput
        label="Name"
        description={`Defaults to the bank's name, ${bankName}.`}
        {...fields.text("name")}
        error={form.fieldError("name")}
      />
      {user.role === "admin" && (
        <Radio.Group label="Save as" value={fields.values.scope} onChange={(value) => fields.set("scope", value as ScopeKind)}>
          <Group mt="xs">
            <Radio value="personal" label="My template" />
            <Radio value="server" label="Server template (everyone can use it)" />
          </Group>
        </Radio.Group>
      )}
    </FormModal>
  );
}
