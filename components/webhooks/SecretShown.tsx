"use client";
import { Code, Stack, Text } from "@mantine/core";
import { TokenNotShown, TokenOnce } from "@/components/console/TokenOnce";
import type { DiscardQuestion } from "@/components/forms/discard";

/** How a receiver checks a delivery (the README's receiver has the whole server). */
const VERIFY_SNIPPET = `import { Webhook } from "standardwebhooks";

const webhook = new Webhook(process.env.WEBHOOK_SECRET);
// body: the request's raw body as a string; headers: its headers.
// Throws unless the signature, id and timestamp check out.
const { type, data } = webhook.verify(body, headers);`;

/** Asked when the page is left while the secret shows and the user has not said they have it. */
export const SECRET_NOT_COPIED: DiscardQuestion = {
  title: "Leave without the secret?",
  message: "The webhook's secret is shown only this once. Copy it before you leave, or rotate the secret later to get a new one.",
};

/**
 * A webhook's new secret, shown once with a copy button and how a receiver verifies a delivery
 * with it. An answer sent again for a lost one (same Idempotency-Key) holds no secret: then the
 * way to one is rotating it.
 */
export function SecretShown({
  secret,
  confirmed,
  onConfirmedChange,
  onDone,
}: {
  secret: string | null;
  confirmed: boolean;
  onConfirmedChange: (confirmed: boolean) => void;
  onDone: () => void;
}) {
  if (secret === null) {
    return (
      <TokenNotShown title="The secret cannot be shown again" onDone={onDone}>
        The answer with the secret was lost on the way, and a secret is shown only in that first answer. Rotate the webhook&apos;s secret to
        get a new one.
      </TokenNotShown>
    );
  }
  return (
    <TokenOnce
      token={secret}
      words={{ noun: "secret", label: "Webhook secret" }}
      confirmed={confirmed}
      onConfirmedChange={onConfirmedChange}
      onDone={onDone}
    >
      <Stack gap={4}>
        <Text size="sm">
          Deliveries are signed with it (Standard Webhooks). A receiver in Node checks each one with the <Code>standardwebhooks</Code>{" "}
          package:
        </Text>
        <Code block data-testid="verify-snippet" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
          {VERIFY_SNIPPET}
        </Code>
      </Stack>
    </TokenOnce>
  );
}
