"use client";
import { Menu } from "@mantine/core";
import { IconLogout, IconUserCircle } from "@tabler/icons-react";
import Link from "next/link";
import { signOut } from "next-auth/react";
import { useConsoleUser } from "./console-user";
import { useOpenedOnArrival } from "./opened-on-arrival";
import { UserMenuButton } from "./UserMenuButton";

/**
 * The account menu proper, loaded by `UserMenu` when its button is first pressed: it takes
 * the place of that button, focused, and opens at once, so the press is not lost and closing
 * the menu returns focus to the button as usual.
 */
export default function UserMenuDropdown() {
  const user = useConsoleUser();
  const { target, opened, setOpened } = useOpenedOnArrival();
  return (
    <Menu position="bottom-end" width={220} withinPortal opened={opened} onChange={setOpened}>
      <Menu.Target>
        <UserMenuButton ref={target} />
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
