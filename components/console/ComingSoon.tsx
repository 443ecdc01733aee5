"use client";
import { EmptyState, Stack, Title } from "@mantine/core";

/** A placeholder for a console page whose API is still being built. */
export function ComingSoon({ title, what }: { title: string; what: string }) {
  return (
    <Stack>
      <Title order={1} size="h2">
        {title}
      </Title>
      <EmptyState title="Coming soon" description={what} py="xl" data-testid="coming-soon" />
    </Stack>
  );
}
