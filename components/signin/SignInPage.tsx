"use client";
import { Alert, Anchor, Button, Divider, Group, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconAlertTriangle, IconCircleCheck, IconStack2 } from "@tabler/icons-react";
import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { signInWithPassword } from "./password-sign-in";
import { SignedOutFrame } from "./SignedOutFrame";
import { signInErrorMessage } from "./sign-in-errors";

interface SignInPageProps {
  callbackUrl: string;
  /** next-auth's error code from the last attempt (OIDC failures arrive this way). */
  error: string | null;
  signedOut: boolean;
  oidc: { id: string; name: string } | null;
}

/** User name and password, and the single sign-on button when OIDC is configured. */
export function SignInPage({ callbackUrl, error: initialError, signedOut, oidc }: SignInPageProps) {
  const [error, setError] = useState<string | null>(initialError ? signInErrorMessage(initialError) : null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Read from the form, not from state: what was typed before the page's code ran is kept
    // (React sets a controlled input back to its state when it takes the page over).
    const fields = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const result = await signInWithPassword(String(fields.get("username") ?? ""), String(fields.get("password") ?? ""), callbackUrl);
    if (result.ok) {
      // A full load, so the console's server layout renders with the new session cookie.
      window.location.assign(callbackUrl);
      return;
    }
    setError(result.message);
    setBusy(false);
  };

  return (
    <SignedOutFrame maxWidth={420}>
      <Stack>
        <Group gap={8}>
          <IconStack2 size={26} aria-hidden />
          <Title order={1} size="h2">
            Sign in
          </Title>
        </Group>
        <Text c="dimmed" size="sm">
          to the Bank Templates Console.
        </Text>
        {signedOut && !error && (
          <Alert color="green" icon={<IconCircleCheck aria-hidden />} role="status">
            You are signed out.
          </Alert>
        )}
        {error && (
          <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title="Not signed in" role="alert" data-testid="signin-error">
            {error}
          </Alert>
        )}
        {/* POST: a submit before the page's code runs must not put the password in a URL. */}
        <form onSubmit={onSubmit} method="post">
          <Stack>
            <TextInput
              label="User name"
              name="username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              autoFocus
            />
            <PasswordInput label="Password" name="password" autoComplete="current-password" required />
            <Button type="submit" loading={busy} fullWidth>
              Sign in
            </Button>
          </Stack>
        </form>
        {oidc && (
          <>
            <Divider label="or" labelPosition="center" />
            <Button variant="default" fullWidth onClick={() => signIn(oidc.id, { callbackUrl })}>
              Sign in with {oidc.name}
            </Button>
          </>
        )}
        <Text size="xs" c="dimmed">
          Programs use API keys instead; see the <Anchor href="/ext/svc/openapi.json">OpenAPI document</Anchor>.
        </Text>
      </Stack>
    </SignedOutFrame>
  );
}
