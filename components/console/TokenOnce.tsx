"use client";
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from "@mantine/core";
import { IconCheck, IconCopy, IconKey } from "@tabler/icons-react";

/** A new API key's token: shown this once, with a copy button; only its hash is stored. */
export function TokenOnce({ token }: { token: string }) {
  return (
    <Alert color="green" icon={<IconKey aria-hidden />} title="Copy the new key now" data-testid="new-token">
      <Stack gap="xs">
        <Text size="sm">This is the only time the key is shown. Store it somewhere safe; it cannot be recovered.</Text>
        <Code block aria-label="New API key" style={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
          {token}
        </Code>
        <Group>
          <CopyButton value={token}>
            {({ copied, copy }) => (
              <Button
                size="xs"
                variant={copied ? "filled" : "light"}
                color={copied ? "teal" : undefined}
                leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
                onClick={copy}
              >
                {copied ? "Copied" : "Copy key"}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}
