"use client";
import { Alert, Button, Group, Stack, Text, Title } from "@mantine/core";
import { IconCircleCheck, IconLock } from "@tabler/icons-react";
import { useState } from "react";
import { lazyModal } from "@/components/console/lazy";

const ChangePasswordModal = lazyModal(() => import("./ChangePasswordModal").then((m) => m.ChangePasswordModal));

/** The user's console password: change it, which signs their other sessions out. */
export function PasswordPanel() {
  const [changing, setChanging] = useState(false);
  const [changed, setChanged] = useState(false);

  return (
    <Stack gap="sm" data-testid="password-panel">
      <Group justify="space-between">
        <Title order={2} size="h4">
          Password
        </Title>
        <Button
          size="sm"
          variant="default"
          leftSection={<IconLock size={16} aria-hidden />}
          onClick={() => {
            setChanged(false);
            setChanging(true);
          }}
        >
          Change password
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        The password you sign in to the console with. Changing it signs you out everywhere else: every other browser where you are signed in
        must sign in again with the new password. API keys keep working. If you only sign in with single sign-on and have no password, an
        admin can set one.
      </Text>
      {changed && (
        <Alert
          color="green"
          icon={<IconCircleCheck aria-hidden />}
          role="status"
          withCloseButton
          onClose={() => setChanged(false)}
          closeButtonLabel="Dismiss"
        >
          Password changed. Your other console sessions were signed out; this one stays signed in.
        </Alert>
      )}
      <ChangePasswordModal opened={changing} onClose={() => setChanging(false)} onChanged={() => setChanged(true)} />
    </Stack>
  );
}
