"use client";
import { Badge, Button, Group, Stack, Text, Title } from "@mantine/core";
import { IconLogout } from "@tabler/icons-react";
import { IdleTooltip } from "@/components/console/IdleTooltip";
import { QueryView } from "@/components/console/QueryView";
import { ResourceTable } from "@/components/console/ResourceTable";
import { RowActions } from "@/components/console/RowActions";
import { Table } from "@/components/console/Table";
import { useConfirm } from "@/components/console/useConfirm";
import { formatAge, formatTimestamp } from "@/lib/client/format";
import { useEndSession, useMySessions, useSignOutOtherSessions } from "@/lib/client/hooks/identity";
import { plural } from "@/lib/shared/plural";

interface SessionRef {
  id: string;
  browser: string | null;
}

const browserName = (session: SessionRef) => session.browser ?? "An unknown browser";

/**
 * Where you are signed in to the console: one row per live session, this one marked, each
 * other one ended on its own or all at once. An ended session is refused on its next request.
 */
export function SessionsPanel() {
  const sessions = useMySessions();
  const end = useEndSession();
  const endOthers = useSignOutOtherSessions();
  const others = sessions.data?.sessions.filter((session) => !session.current).length ?? 0;

  const confirmEnd = useConfirm<SessionRef>({
    title: "Sign out this session?",
    confirmLabel: "Sign out",
    message: (session) => <>{browserName(session)} will be sent to the sign-in page on its next request.</>,
    onConfirm: (session) => end.mutateAsync({ params: { session_id: session.id } }),
  });
  const confirmEndOthers = useConfirm<number>({
    title: "Sign out everywhere else?",
    confirmLabel: "Sign out everywhere else",
    message: (count) => (
      <>{plural(count, "other session")} will be sent to the sign-in page on their next request. This session stays signed in.</>
    ),
    onConfirm: () => endOthers.mutateAsync({}),
  });

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          Sessions
        </Title>
        <Button
          size="sm"
          variant="light"
          color="red"
          leftSection={<IconLogout size={16} aria-hidden />}
          disabled={others === 0}
          onClick={() => confirmEndOthers.ask(others)}
        >
          Sign out everywhere else
        </Button>
      </Group>
      <QueryView
        query={sessions}
        loading="Loading your sessions…"
        errorTitle="Could not load your sessions"
        isEmpty={(list) => list.sessions.length === 0}
        empty={{ title: "No console sessions", description: "You are signed in to the console nowhere; programs use API keys." }}
      >
        {(list) => (
          <ResourceTable
            verticalSpacing="xs"
            testId="sessions-table"
            caption="Your console sessions"
            columns={[{ label: "Browser" }, { label: "Signed in", visibleFrom: "sm" }, { label: "Last seen" }]}
            actions
          >
            {list.sessions.map((session) => (
              <Table.Tr key={session.id} data-current={session.current || undefined}>
                <Table.Td>
                  <Group gap={6}>
                    <Text size="sm">{browserName(session)}</Text>
                    {session.current && (
                      <Badge size="sm" variant="light">
                        This session
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm">{formatTimestamp(session.created_at)}</Text>
                </Table.Td>
                <Table.Td>
                  <IdleTooltip label={formatTimestamp(session.last_seen_at)}>
                    <Text component="time" dateTime={session.last_seen_at} size="sm">
                      {formatAge(session.last_seen_at)}
                    </Text>
                  </IdleTooltip>
                </Table.Td>
                <RowActions
                  name={`the session in ${browserName(session)}`}
                  actions={
                    session.current
                      ? []
                      : [
                          {
                            label: "Sign out",
                            ariaLabel: `Sign out the session in ${browserName(session)}`,
                            danger: true,
                            onClick: () => confirmEnd.ask(session),
                          },
                        ]
                  }
                />
              </Table.Tr>
            ))}
          </ResourceTable>
        )}
      </QueryView>
      {confirmEnd.modal}
      {confirmEndOthers.modal}
    </Stack>
  );
}
