"use client";
import { Alert, Button, Checkbox, Code, Group, Stack, Text } from "@mantine/core";
import { useClipboard } from "@mantine/hooks";
import { IconAlertTriangle, IconCheck, IconCopy, IconKey } from "@tabler/icons-react";
import { useEffect, useRef } from "react";

interface TokenOnceProps {
  token: string;
  /** The user has the token: copied it, or ticked that they stored it. */
  confirmed: boolean;
  onConfirmedChange: (confirmed: boolean) => void;
  /** Closes what shows the token; offered once `confirmed`. */
  onDone: () => void;
}

/**
 * A new API key's token: shown this once, with a copy button; only its hash is stored. The
 * dialog showing it closes only by Done, which waits until the key was copied or the user
 * ticked that they stored it: a stray Escape or click must not lose a key nobody can show again.
 */
export function TokenOnce({ token, confirmed, onConfirmedChange, onDone }: TokenOnceProps) {
  const clipboard = useClipboard({ timeout: 2000 });
  // It replaces the form whose button had focus: focus moves here rather than to nowhere, where
  // an Escape would reach the dialogs below this one.
  const copyButton = useRef<HTMLButtonElement>(null);
  useEffect(() => copyButton.current?.focus(), []);
  const copy = () => {
    clipboard.copy(token);
    onConfirmedChange(true);
  };
  return (
    <Stack>
      <Alert color="green" icon={<IconKey aria-hidden />} title="Copy the new key now" data-testid="new-token">
        <Stack gap="xs">
          <Text size="sm">This is the only time the key is shown. Store it somewhere safe; it cannot be recovered.</Text>
          <Code block aria-label="New API key" style={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
            {token}
          </Code>
          <Group>
            <Button
              size="xs"
              variant={clipboard.copied ? "filled" : "light"}
              color={clipboard.copied ? "teal" : undefined}
              leftSection={clipboard.copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
              onClick={copy}
              ref={copyButton}
            >
              {clipboard.copied ? "Copied" : "Copy key"}
            </Button>
          </Group>
          {clipboard.error && (
            <Text size="sm" c="red" role="alert">
              The browser did not let the console copy it: select the key and copy it yourself.
            </Text>
          )}
        </Stack>
      </Alert>
      <Group justify="space-between">
        <Checkbox
          label="I have copied the key and stored it safely"
          checked={confirmed}
          onChange={(event) => onConfirmedChange(event.currentTarget.checked)}
        />
        <Button onClick={onDone} disabled={!confirmed}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * A key made whose token cannot be shown: the first answer was lost and the one sent again for it
 * (same Idempotency-Key) never holds the token (CONTRACT §19). The user revokes it and makes another.
 */
export function TokenNotShown({ prefix, onDone }: { prefix: string; onDone: () => void }) {
  const doneButton = useRef<HTMLButtonElement>(null);
  useEffect(() => doneButton.current?.focus(), []);
  return (
    <Stack>
      <Alert
        color="yellow"
        icon={<IconAlertTriangle aria-hidden />}
        title="The key was made; its token cannot be shown again"
        data-testid="token-not-shown"
      >
        <Text size="sm">
          The answer with the new key was lost on the way, and the token is shown only in that first answer. Revoke the key starting with{" "}
          <Code>{prefix}</Code> in the list, and make a new key.
        </Text>
      </Alert>
      <Group justify="flex-end">
        <Button onClick={onDone} ref={doneButton}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
