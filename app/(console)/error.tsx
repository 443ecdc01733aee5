"use client";
import { Button, Stack, Text, Title } from "@mantine/core";

// A console page that failed to render: say so inside the shell, and offer a retry.
export default function ConsoleError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <Stack align="flex-start" py="xl" maw={560} role="alert">
      <Title order={1} size="h2">
        This page could not be shown
      </Title>
      <Text>Something went wrong on our side. Try again; if it keeps happening, tell an administrator.</Text>
      <Button onClick={reset}>Try again</Button>
    </Stack>
  );
}
