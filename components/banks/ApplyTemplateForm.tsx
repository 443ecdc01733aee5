"use client";
import { Alert, Button, Group, Stack, TextInput } from "@mantine/core";
import { IconAlertTriangle, IconEye, IconPlayerPlay } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { askToDiscard } from "@/components/forms/discard";
import { FormFieldset } from "@/components/forms/FormFieldset";
import { FormStatus } from "@/components/forms/FormStatus";
import { useDialogEscape } from "@/components/forms/useDialogEscape";
import { useFormSubmit } from "@/components/forms/useFormSubmit";
import { useLeaveGuard } from "@/components/forms/useLeaveGuard";
import type { CallResult } from "@/lib/client/api";
import type { endpoints } from "@/lib/client/endpoints";
import { useApplyTemplate, useBanks } from "@/lib/client/hooks/banks";
import { ImportPreview } from "./ImportPreview";
import { TemplatePicker } from "./TemplatePicker";

const FIELDS = ["bank_id", "template", "name"] as const;

export type ApplyResult = CallResult<typeof endpoints.banks.create>;

interface ApplyTemplateFormProps {
  /** Absent: a new bank, whose id and name the form asks for. Given: that bank gets the template. */
  bankId?: string;
  /** The template chosen already (`server/support-bot`), as from a template's "Create a bank from it". */
  initialTemplate?: string;
  /** Called after Apply succeeded, with what it did. */
  onApplied: (result: ApplyResult) => void;
  onCancel?: () => void;
}

/**
 * Applies a template to a bank in two steps: Preview runs a dry run and lists what would be
 * created and updated; Apply, offered only for the inputs just previewed, does it. With
 * inputs typed and not applied, leaving the page, Cancel, and Escape in a dialog around the
 * form ask before discarding them.
 */
export function ApplyTemplateForm({ bankId: fixedBankId, initialTemplate = "", onApplied, onCancel }: ApplyTemplateFormProps) {
  const apply = useApplyTemplate();
  const banks = useBanks();
  const form = useFormSubmit(FIELDS, { statusFields: { 404: "template" } });
  const [bankId, setBankId] = useState(fixedBankId ?? "");
  const [name, setName] = useState("");
  const [template, setTemplate] = useState(initialTemplate);
  const [preview, setPreview] = useState<{ key: string; result: ApplyResult } | null>(null);
  const [applied, setApplied] = useState(false);
  const dirty = !applied && (bankId !== (fixedBankId ?? "") || name !== "" || template !== initialTemplate);
  useLeaveGuard(dirty);

  const body = { bank_id: (fixedBankId ?? bankId).trim(), template: template.trim(), name: name.trim() || undefined };
  const key = JSON.stringify(body);
  const current = preview?.key === key ? preview.result : null;
  const existing = banks.data?.banks.some((b) => b.bank_id === body.bank_id) ?? fixedBankId !== undefined;

  const runPreview = async (event: FormEvent) => {
    event.preventDefault();
    setPreview(null);
    const result = await form.submit(() => apply.mutateAsync({ body, query: { dry_run: "true" } }));
    if (result) setPreview({ key, result });
  };

  const runApply = async () => {
    const result = await form.submit(() => apply.mutateAsync({ body }));
    if (result) {
      setApplied(true);
      onApplied(result);
    }
  };

  const cancel = async () => {
    if (dirty && !(await askToDiscard())) return;
    onCancel?.();
  };
  // In a dialog (a bank's "Apply a template"), Escape is Cancel: it asks first, and closes the dialog through onCancel.
  const escapeRef = useDialogEscape(onCancel !== undefined, () => void cancel());

  const forbidden = form.problem?.status === 403;
  return (
    <Stack ref={escapeRef}>
      <form onSubmit={runPreview} noValidate aria-label={fixedBankId ? `Apply a template to ${fixedBankId}` : "New bank"}>
        <FormFieldset>
          <Stack>
            {fixedBankId === undefined && (
              <>
                <TextInput
                  label="Bank id"
                  description="1-128 characters: letters, digits, '.', '_', ':' or '-'. Banks share one id space on this server."
                  placeholder="support-team"
                  required
                  spellCheck={false}
                  autoCapitalize="none"
                  value={bankId}
                  onChange={(e) => setBankId(e.currentTarget.value)}
                  error={form.fieldError("bank_id")}
                  data-autofocus
                />
                <TextInput
                  label="Name"
                  description="Optional display name; the bank id when left empty."
                  placeholder="Support team"
                  value={name}
                  onChange={(e) => setName(e.currentTarget.value)}
                  error={form.fieldError("name")}
                />
              </>
            )}
            <TemplatePicker
              value={template}
              onChange={setTemplate}
              error={form.fieldError("template")}
              autoFocus={fixedBankId !== undefined}
              inDialog={fixedBankId !== undefined}
            />
            {forbidden ? (
              <Alert color="red" role="alert" title="Not allowed" icon={<IconAlertTriangle aria-hidden />}>
                {form.problem?.detail}
              </Alert>
            ) : (
              <FormStatus form={form} />
            )}
            <Group justify="flex-end">
              {onCancel && (
                <Button variant="default" onClick={() => void cancel()}>
                  Cancel
                </Button>
              )}
              <Button
                type="submit"
                variant={current ? "default" : "filled"}
                loading={form.busy && !current}
                leftSection={<IconEye size={16} aria-hidden />}
              >
                Preview
              </Button>
            </Group>
          </Stack>
        </FormFieldset>
      </form>
      {preview && !current && (
        <Alert color="yellow" role="status" title="The inputs changed">
          Preview again to see what Apply would do now.
        </Alert>
      )}
      {current && (
        <>
          <ImportPreview
            result={current.import_result}
            changes={current.changes}
            template={current.template}
            bankId={current.bank_id}
            existing={existing}
            dryRun
          />
          <Group justify="flex-end">
            <Button onClick={runApply} loading={form.busy} leftSection={<IconPlayerPlay size={16} aria-hidden />}>
              Apply
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
