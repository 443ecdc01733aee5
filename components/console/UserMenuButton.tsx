"use client";
import { Avatar, Group, Text, UnstyledButton } from "@mantine/core";
import { IconChevronDown } from "@tabler/icons-react";
import { type ComponentPropsWithoutRef, forwardRef } from "react";
import { useConsoleUser } from "./console-user";

/** The account menu's button: the signed-in user's avatar and name. */
export const UserMenuButton = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<"button">>(function UserMenuButton(props, ref) {
  const user = useConsoleUser();
  return (
    <UnstyledButton ref={ref} aria-label={`Account menu for ${user.displayName}`} data-testid="user-menu" {...props}>
      <Group gap={6} wrap="nowrap">
        <Avatar size="sm" radius="xl" name={user.displayName} color="initials" aria-hidden />
        <Text size="sm" fw={500} visibleFrom="sm">
          {user.displayName}
        </Text>
        <IconChevronDown size={14} aria-hidden />
      </Group>
    </UnstyledButton>
  );
});
