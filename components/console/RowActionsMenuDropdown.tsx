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
    <Menu position="bottom-end" withinPortal opened={opened} onChange={setOpened}>
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
              color={action.danger ? "red" : undefined}
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
