"use client";
import { Button, Group } from "@mantine/core";
import Link from "next/link";
import type { MenuAction } from "./ConsoleMenu";
import { RowActionsMenu } from "./RowActionsMenu";
import { Table } from "./Table";

// Apart from ResourceTable: a table of its own (the Templates table) uses these without it.

/** A row's action; `danger` makes its button red and subtle. */
export interface RowAction extends MenuAction {
  /** The accessible name, naming the row ("Delete user carol"). */
  ariaLabel: string;
  /** For an action that shows something under the row (a user's keys): whether it is shown now. */
  expanded?: boolean;
}

function RowActionButton({ action }: { action: RowAction }) {
  const look = {
    size: "xs",
    variant: action.danger ? "subtle" : "light",
    color: action.danger ? "red" : undefined,
    leftSection: action.icon,
    "aria-label": action.ariaLabel,
    "aria-expanded": action.expanded,
  } as const;
  return action.href ? (
    <Button component={Link} href={action.href} {...look}>
      {action.label}
    </Button>
  ) : (
    <Button onClick={action.onClick} {...look}>
      {action.label}
    </Button>
  );
}

/**
 * The last cell of a row: its buttons, right-aligned, on one line unless `wrap`. Below the
 * `sm` breakpoint two actions or more become one menu ("Actions for {name}"), so each stays
 * reachable on a phone instead of being pushed out of the table.
 */
export function RowActions({
  actions,
  name,
  gap = "xs",
  wrap = false,
}: {
  actions: RowAction[];
  /** The row's name, for the menu button ("Actions for carol"). */
  name: string;
  gap?: number | "xs";
  wrap?: boolean;
}) {
  const collapse = actions.length > 1;
  return (
    <Table.Td>
      <Group gap={gap} justify="flex-end" wrap={wrap ? "wrap" : "nowrap"} visibleFrom={collapse ? "sm" : undefined}>
        {actions.map((action) => (
          <RowActionButton key={action.label} action={action} />
        ))}
      </Group>
      {collapse && (
        <Group justify="flex-end" hiddenFrom="sm">
          <RowActionsMenu name={name} actions={actions} />
        </Group>
      )}
    </Table.Td>
  );
}
