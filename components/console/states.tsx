"use client";
import { Alert, Button, Center, EmptyState, Group, Loader, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { describeError } from "@/lib/client/problem";

/** While a list loads: a spinner announced to screen readers. */
export function LoadingState({ label }: { label: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" aria-hidden />
        <Text c="dimmed">{label}</Text>
      </Group>
    </Center>
  );
}

/** A failed load: what went wrong, and a way to try again. */
export function ErrorState({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  return (
    <Alert color="red" title={title} icon={<IconAlertTriangle aria-hidden />} role="alert">
      <Text size="sm">{describeError(error)}</Text>
      {onRetry && (
        <Button variant="light" color="red" size="xs" mt="sm" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Alert>
  );
}

/** Nothing here yet: say so, and offer the way to add something. */
export function EmptyList({ title, description, action }: { title: string; description: ReactNode; action?: ReactNode }) {
  return (
    <EmptyState title={title} description={description} py="xl">
      {action}
    </EmptyState>
  );
}

/** An error of a form submission that belongs to no single field. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" role="alert" icon={<IconAlertTriangle aria-hidden />}>
      {message}
    </Alert>
  );
}
