"use client";
import { Avatar, Group, Menu, Text, UnstyledButton } from "@mantine/core";
import { IconChevronDown, IconLogout, IconUserCircle } from "@tabler/icons-react";
import Link from "next/link";
import { signOut } from "next-auth/react";
import { useConsoleUser } from "./console-user";

/** The signed-in user's name and role, with Account and Sign out. */
export function UserMenu() {
  const user = useConsoleUser();
  return (
    <Menu position="bottom-end" width={220} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={`Account menu for ${user.displayName}`} data-testid="user-menu">
          <Group gap={6} wrap="nowrap">
            <Avatar size="sm" radius="xl" name={user.displayName} color="initials" aria-hidden />
            <Text size="sm" fw={500} visibleFrom="sm">
              {user.displayName}
            </Text>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          Signed in as {user.id} ({user.role})
        </Menu.Label>
        <Menu.Item component={Link} href="/account" leftSection={<IconUserCircle size={16} aria-hidden />}>
          Account
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={() => signOut({ callbackUrl: "/signin?signedOut=1" })}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
