"use client";
import { Alert, Button, Checkbox, Code, Group, Stack, Text } from "@mantine/core";
import { useClipboard } from "@mantine/hooks";
import { IconAlertTriangle, IconCheck, IconCopy, IconKey } from "@tabler/icons-react";
import { type ReactNode, useEffect, useRef } from "react";

/** What the token is, in words: the noun ("key", "secret") and the name of the box showing it. */
interface TokenWords {
  noun: string;
  label: string;
}

const API_KEY: TokenWords = { noun: "key", label: "New API key" };

interface TokenOnceProps {
  token: string;
  /** An API key's by default. */
  words?: TokenWords;
  /** Shown under the token: how to use it. */
  children?: ReactNode;
  /** The user has the token: copied it, or ticked that they stored it. */
  confirmed: boolean;
  onConfirmedChange: (confirmed: boolean) => void;
  /** Closes what shows the token; offered once `confirmed`. */
  onDone: () => void;
}

/**
 * A new API key's token (or a webhook's secret): shown this once, with a copy button. The
 * dialog showing it closes only by Done, which waits until it was copied or the user ticked
 * that they stored it: a stray Escape or click must not lose what nobody can show again.
 */
export function TokenOnce({ token, words = API_KEY, children, confirmed, onConfirmedChange, onDone }: TokenOnceProps) {
  const { noun, label } = words;
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
      <Alert color="green" icon={<IconKey aria-hidden />} title={`Copy the new ${noun} now`} data-testid="new-token">
        <Stack gap="xs">
          <Text size="sm">This is the only time the {noun} is shown. Store it somewhere safe; it cannot be recovered.</Text>
          <Code block aria-label={label} style={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
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
              {clipboard.copied ? "Copied" : `Copy ${noun}`}
            </Button>
          </Group>
          {clipboard.error && (
            <Text size="sm" c="red" role="alert">
              The browser did not let the console copy it: select the {noun} and copy it yourself.
            </Text>
          )}
        </Stack>
      </Alert>
      {children}
      <Group justify="space-between">
        <Checkbox
          label={`I have copied the ${noun} and stored it safely`}
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
 * Something made whose token cannot be shown: the first answer was lost and the one sent again for
 * it (same Idempotency-Key) never holds the token (CONTRACT §19). `children` say how to get another.
 */
export function TokenNotShown({ title, children, onDone }: { title: string; children: ReactNode; onDone: () => void }) {
  const doneButton = useRef<HTMLButtonElement>(null);
  useEffect(() => doneButton.current?.focus(), []);
  return (
    <Stack>
      <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} title={title} data-testid="token-not-shown">
        <Text size="sm">{children}</Text>
      </Alert>
      <Group justify="flex-end">
        <Button onClick={onDone} ref={doneButton}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
