"use client";
import { IconLogout, IconUserCircle } from "@tabler/icons-react";
import { signOut } from "next-auth/react";
import { ConsoleMenu } from "./ConsoleMenu";
import { useConsoleUser } from "./console-user";
import { UserMenuButton } from "./UserMenuButton";

/**
 * The account menu proper, loaded by `UserMenu` when its button is first pressed: it takes
 * the place of that button, focused, and opens at once, so the press is not lost and closing
 * the menu returns focus to the button as usual.
 */
export default function UserMenuDropdown() {
  const user = useConsoleUser();
  return (
    <ConsoleMenu
      target={(ref) => <UserMenuButton ref={ref} />}
      width={220}
      heading={`Signed in as ${user.id} (${user.role})`}
      actions={[
        { label: "Account", href: "/account", icon: <IconUserCircle size={16} aria-hidden /> },
        { label: "Sign out", icon: <IconLogout size={16} aria-hidden />, onClick: () => signOut({ callbackUrl: "/signin?signedOut=1" }) },
      ]}
    />
  );
}
