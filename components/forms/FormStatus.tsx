"use client";
import { Alert, Button, Group, Loader, Text } from "@mantine/core";
import { FormError } from "@/components/console/states";

/** What useFormSubmit gives a form to say how its submission went. */
export interface FormStatusOf {
  formError: string | null;
  waiting: boolean;
  cancelWaiting: () => void;
}

/**
 * How a form's submission stands, beside its buttons: the error that belongs to no field, or,
 * while its save waits for the server to come back (lib/client/pending-saves.ts), that it will
 * be saved then, and a Cancel that sends nothing more.
 */
export function FormStatus({ form }: { form: FormStatusOf }) {
  if (!form.waiting) return <FormError message={form.formError} />;
  return (
    // A status, not an alert: nothing failed, and it says so politely.
    <Alert color="yellow" role="status" data-testid="save-waiting">
      <Group justify="space-between" gap="sm">
        <Group gap="xs">
          <Loader size="xs" color="yellow" aria-hidden />
          <Text size="sm">Saving when the server is back…</Text>
        </Group>
        <Button size="xs" variant="default" onClick={form.cancelWaiting}>
          Cancel saving
        </Button>
      </Group>
    </Alert>
  );
}
