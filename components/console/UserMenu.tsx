"use client";
import { lazy, Suspense, useState } from "react";
import { UserMenuButton } from "./UserMenuButton";

// Mantine's Menu (Popover, floating-ui, focus trap) and next-auth's signOut are ~30 kB of
// gzipped JavaScript that no page needs before someone opens this menu; every console page
// loads this header. So the button comes first, the menu's code is fetched when the pointer
// or focus reaches the button, and the menu takes the button's place on the first press.
const loadDropdown = () => import("./UserMenuDropdown");
const UserMenuDropdown = lazy(loadDropdown);

/** The signed-in user's name and role, with Account and Sign out. */
export function UserMenu() {
  const [pressed, setPressed] = useState(false);
  const button = (
    <UserMenuButton
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void loadDropdown()}
      onFocus={() => void loadDropdown()}
      onClick={() => setPressed(true)}
    />
  );
  if (!pressed) return button;
  return (
    <Suspense fallback={button}>
      <UserMenuDropdown />
    </Suspense>
  );
}
