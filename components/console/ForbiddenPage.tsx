"use client";
import { Button, Code, Stack, Text, Title } from "@mantine/core";
import Link from "next/link";

/** What a member sees at an admin URL: a plain 403, and the way back. */
export function ForbiddenPage({ userId }: { userId: string }) {
  return (
    <Stack align="flex-start" gap="md" maw={560} py="xl" data-testid="forbidden">
      <Code>403</Code>
      <Title order={1} size="h2">
        Administrators only
      </Title>
      <Text>
        You are signed in as <strong>{userId}</strong>, who is not an administrator, so this page is not available to you. Ask an
        administrator if you need access.
      </Text>
      <Button component={Link} href="/sources" variant="light">
        Back to your sources
      </Button>
    </Stack>
  );
}
