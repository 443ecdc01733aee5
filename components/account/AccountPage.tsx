"use client";
import { Card, Group, Skeleton, Stack, Text } from "@mantine/core";
import { PageHeader } from "@/components/console/PageHeader";
import { RoleBadge } from "@/components/console/RoleBadge";
import { ErrorState } from "@/components/console/states";
import { useMe } from "@/lib/client/hooks/identity";
import { ApiKeysPanel } from "./ApiKeysPanel";
import { PasswordPanel } from "./PasswordPanel";
import { ServiceAccountsPanel } from "./ServiceAccountsPanel";
import { SessionsPanel } from "./SessionsPanel";

/** Who the API says you are: the same answer programs get from GET /ext/svc/me. */
function Profile() {
  const me = useMe();
  if (me.isPending) return <Skeleton height={56} aria-label="Loading your profile" />;
  if (me.isError) return <ErrorState title="Could not load your profile" error={me.error} onRetry={() => me.refetch()} />;
  return (
    <Group gap="md" data-testid="profile">
      <Text fw={600}>{me.data.display_name}</Text>
      <Text c="dimmed">
        user id <strong>{me.data.user_id}</strong>
      </Text>
      <RoleBadge role={me.data.role} />
    </Group>
  );
}

/** Account: your password, your console sessions, your API keys (token shown once) and your service accounts with theirs. */
export function AccountPage() {
  const me = useMe();
  // Passwords belong to users: the section shows only once /ext/svc/me says the caller is one.
  const isUser = me.data?.principal_type === "user";
  return (
    <>
      <PageHeader
        title="Account"
        description="Your password, where you are signed in, and the API keys and service accounts programs use to call the API."
      />
      <Stack gap="xl">
        <Card withBorder padding="lg">
          <Profile />
        </Card>
        {isUser && (
          <Card withBorder padding="lg">
            <PasswordPanel />
          </Card>
        )}
        {isUser && (
          <Card withBorder padding="lg">
            <SessionsPanel />
          </Card>
        )}
        <Card withBorder padding="lg">
          <ApiKeysPanel owner={{ kind: "self" }} ownerLabel="you" title="Your API keys" />
        </Card>
        <Card withBorder padding="lg">
          <ServiceAccountsPanel />
        </Card>
      </Stack>
    </>
  );
}
