"use client";
import { lazy } from "react";
import { LazyMenu } from "./lazy-menu";
import { UserMenuButton } from "./UserMenuButton";

// next-auth's signOut comes with the menu's code (see LazyMenu): every console page loads this header.
const loadDropdown = () => import("./UserMenuDropdown");
const UserMenuDropdown = lazy(loadDropdown);

/** The signed-in user's name and role, with Account and Sign out. */
export function UserMenu() {
  return (
    <LazyMenu preload={loadDropdown} button={(props) => <UserMenuButton aria-haspopup="menu" {...props} />} menu={<UserMenuDropdown />} />
  );
}
