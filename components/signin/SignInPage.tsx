"use client";
import { Alert, Anchor, Button, Divider, Group, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconAlertTriangle, IconCircleCheck, IconStack2 } from "@tabler/icons-react";
import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { useHydrated } from "@/components/console/useHydrated";
import { BOOTSTRAP_ADMIN_ID } from "@/lib/contracts/identity/sign-in-messages";
import { signInWithPassword } from "./password-sign-in";
import { SignedOutFrame } from "./SignedOutFrame";
import { signInErrorMessage } from "./sign-in-errors";

interface SignInPageProps {
  callbackUrl: string;
  /** next-auth's error code from the last attempt (OIDC failures arrive this way). */
  error: string | null;
  signedOut: boolean;
  oidc: { id: string; name: string } | null;
  /** False (PASSWORD_SIGN_IN=false): the password form is for the bootstrap admin only, folded away. */
  passwordSignIn: boolean;
}

/**
 * The single-sign-on button when OIDC is configured, and user name and password; with password
 * sign-in off, single sign-on first and the administrator's password form behind a button.
 */
export function SignInPage({ callbackUrl, error: initialError, signedOut, oidc, passwordSignIn }: SignInPageProps) {
  const [error, setError] = useState<string | null>(initialError ? signInErrorMessage(initialError) : null);
  const [busy, setBusy] = useState(false);
  /** With password sign-in off: whether the administrator asked for the password form. */
  const [adminPassword, setAdminPassword] = useState(false);
  const hydrated = useHydrated();

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

  const ssoButton = oidc && (
    <Button variant={passwordSignIn ? "default" : "filled"} fullWidth disabled={!hydrated} onClick={() => signIn(oidc.id, { callbackUrl })}>
      Sign in with {oidc.name}
    </Button>
  );
  // Until the page's code runs, every button here is disabled: a click would do nothing, or
  // worse. Sign in, and with it Enter in a field (the form's default button), would be the
  // browser's own submit, a post to this page, which does not sign in and reloads it empty. What
  // is typed meanwhile is kept (the fields are the browser's own, read at submit). POST all the
  // same: a submit that got through must not put the password in a URL.
  const passwordForm = (
    <form onSubmit={onSubmit} method="post">
      <Stack>
        {!passwordSignIn && (
          <Text size="sm" c="dimmed">
            Password sign-in is for the administrator ({BOOTSTRAP_ADMIN_ID}) only; everyone else signs in with single sign-on.
          </Text>
        )}
        <TextInput
          label="User name"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus={passwordSignIn}
          {...(passwordSignIn ? {} : { defaultValue: BOOTSTRAP_ADMIN_ID, readOnly: true })}
        />
        <PasswordInput label="Password" name="password" autoComplete="current-password" required autoFocus={!passwordSignIn} />
        <Button type="submit" loading={busy} disabled={!hydrated} fullWidth variant={passwordSignIn ? "filled" : "default"}>
          Sign in
        </Button>
      </Stack>
    </form>
  );

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
        {passwordSignIn ? (
          <>
            {passwordForm}
            {ssoButton && <Divider label="or" labelPosition="center" />}
            {ssoButton}
          </>
        ) : (
          <>
            {ssoButton}
            {adminPassword ? (
              passwordForm
            ) : (
              <Button variant="subtle" size="compact-sm" disabled={!hydrated} onClick={() => setAdminPassword(true)}>
                Administrator: sign in with a password
              </Button>
            )}
          </>
        )}
        <Text size="xs" c="dimmed">
          Programs use API keys instead; see the <Anchor href="/ext/svc/openapi.json">OpenAPI document</Anchor>.
        </Text>
      </Stack>
    </SignedOutFrame>
  );
}
