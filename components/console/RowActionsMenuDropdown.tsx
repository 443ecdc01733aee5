"use client";
import { Menu } from "@mantine/core";
import Link from "next/link";
import { useOpenedOnArrival } from "./opened-on-arrival";
import type { RowAction } from "./RowActions";
import { RowActionsButton } from "./RowActionsMenu";

/** The row's menu proper, loaded by `RowActionsMenu` when its button is first pressed (see LazyMenu). */
export default function RowActionsMenuDropdown({ name, actions }: { name: string; actions: RowAction[] }) {
  const { target, opened, setOpened } = useOpenedOnArrival();
  return (
    // Inside the page's landmarks, not portalled to the end of the body (axe: region), and fixed so
    // the table's scrolling box does not clip it. No focus placeholder: a focusable presentational
    // div is a child a menu may not have (axe: aria-required-children); a key still opens it on
    // its first item.
    <Menu
      position="bottom-end"
      withinPortal={false}
      floatingStrategy="fixed"
      withInitialFocusPlaceholder={false}
      opened={opened}
      onChange={setOpened}
    >
      <Menu.Target>
        <RowActionsButton ref={target} name={name} />
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((action) =>
          action.href ? (
            <Menu.Item key={action.label} component={Link} href={action.href} leftSection={action.icon} aria-label={action.ariaLabel}>
              {action.label}
            </Menu.Item>
          ) : (
            <Menu.Item
              key={action.label}
              leftSection={action.icon}
              // The scheme's readable red (Mantine's "red" item is 3.3:1 on white).
              c={action.danger ? "var(--mantine-color-red-text)" : undefined}
              aria-label={action.ariaLabel}
              onClick={action.onClick}
            >
              {action.label}
            </Menu.Item>
          ),
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
