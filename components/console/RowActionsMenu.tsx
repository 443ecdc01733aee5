"use client";
import { ActionIcon } from "@mantine/core";
// The chevron the account menu shows already: no icon of its own in the first load.
import { IconChevronDown } from "@tabler/icons-react";
import { type ComponentPropsWithoutRef, forwardRef, lazy } from "react";
import { LazyMenu } from "./lazy-menu";
import type { RowAction } from "./RowActions";

const loadMenu = () => import("./RowActionsMenuDropdown");
const RowActionsMenuDropdown = lazy(loadMenu);

/** The button that opens a row's actions menu, named for the row ("Actions for support-bot"). */
export const RowActionsButton = forwardRef<HTMLButtonElement, { name: string } & ComponentPropsWithoutRef<"button">>(
  function RowActionsButton({ name, ...props }, ref) {
    return (
      <ActionIcon ref={ref} variant="default" aria-label={`Actions for ${name}`} aria-haspopup="menu" {...props}>
        <IconChevronDown size={16} aria-hidden />
      </ActionIcon>
    );
  },
);

/** A row's actions as one menu (its code loaded when first wanted), for screens too narrow for their buttons side by side. */
export function RowActionsMenu({ name, actions }: { name: string; actions: RowAction[] }) {
  return (
    <LazyMenu
      preload={loadMenu}
      button={(props) => <RowActionsButton name={name} {...props} />}
      menu={<RowActionsMenuDropdown name={name} actions={actions} />}
    />
  );
}
