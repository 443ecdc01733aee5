"use client";
import { Menu } from "@mantine/core";
import Link from "next/link";
import type { ReactElement, ReactNode, Ref } from "react";
import { useOpenedOnArrival } from "./opened-on-arrival";

// Apart from LazyMenu: only the menus it loads use this, so it loads with them.

/** An entry of a console menu: a link with `href`, else a button doing `onClick`. */
export interface MenuAction {
  /** The visible label ("Delete"). */
  label: string;
  /** The accessible name, when the label alone does not say enough ("Delete user carol"). */
  ariaLabel?: string;
  onClick?: () => void;
  href?: string;
  /** A destructive action, in the scheme's readable red. */
  danger?: boolean;
  icon?: ReactNode;
}

/**
 * The console's menu (the account menu, a row's actions), loaded by LazyMenu in its button's
 * place: open at once with its button (`target`, given the ref to focus) focused. Inside the
 * page's landmarks, not portalled to the end of the body (axe: region), and fixed so a scrolling
 * box (a table's) does not clip it. No focus placeholder: a focusable presentational div is a
 * child a menu may not have (axe: aria-required-children); a key still opens it on its first item.
 */
export function ConsoleMenu({
  target,
  heading,
  actions,
  width,
}: {
  target: (ref: Ref<HTMLButtonElement>) => ReactElement;
  /** A label above the entries ("Signed in as …"). */
  heading?: ReactNode;
  actions: MenuAction[];
  width?: number;
}) {
  const { target: targetRef, opened, setOpened } = useOpenedOnArrival();
  return (
    <Menu
      position="bottom-end"
      width={width}
      withinPortal={false}
      floatingStrategy="fixed"
      withInitialFocusPlaceholder={false}
      opened={opened}
      onChange={setOpened}
    >
      <Menu.Target>{target(targetRef)}</Menu.Target>
      <Menu.Dropdown>
        {heading && <Menu.Label>{heading}</Menu.Label>}
        {actions.map((action) => {
          const item = {
            leftSection: action.icon,
            "aria-label": action.ariaLabel,
            // The scheme's readable red (Mantine's "red" item is 3.3:1 on white).
            c: action.danger ? "var(--mantine-color-red-text)" : undefined,
          };
          return action.href ? (
            <Menu.Item key={action.label} component={Link} href={action.href} {...item}>
              {action.label}
            </Menu.Item>
          ) : (
            <Menu.Item key={action.label} onClick={action.onClick} {...item}>
              {action.label}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
