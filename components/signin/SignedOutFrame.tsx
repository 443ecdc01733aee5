import { Box, Center, Group, Paper } from "@mantine/core";
import type { ReactNode } from "react";
import { ColorSchemeToggle } from "@/components/console/ColorSchemeToggle";

/** The pages of visitors who are not signed in (sign-in, landing): one card as the page's main, the colour scheme toggle above. */
export function SignedOutFrame({ maxWidth, children }: { maxWidth: number; children: ReactNode }) {
  return (
    <Box mih="100vh" p="md">
      <Group justify="flex-end">
        <ColorSchemeToggle />
      </Group>
      <Center mt="xl">
        <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={maxWidth} component="main">
          {children}
        </Paper>
      </Center>
    </Box>
  );
}
